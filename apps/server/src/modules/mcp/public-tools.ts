import { SEARCH_TYPES } from '@portico/contracts/constants';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { publicChangelog, publicProducts } from '../catalog/service.ts';
import { publicArticles, publicFaqs } from '../content/service.ts';
import { documentationPages, htmlToMarkdown, oneOperation } from '../markdown/service.ts';
import { searchDocuments } from '../search/service.ts';
import { text, type ToolAnswer } from './answers.ts';

const M = en.mcp;
const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/** What the tools answer with at most, in characters (a whole documentation can be megabytes). */
export const ANSWER_MAX = 60_000;

/** A Markdown answer cut at ANSWER_MAX, saying so. */
function markdown(body: string, moreUrl?: string): ToolAnswer {
  if (body.length <= ANSWER_MAX) return text(body);
  const cut = body.slice(0, ANSWER_MAX);
  return text(`${cut.slice(0, cut.lastIndexOf('\n') + 1)}\n…${moreUrl ? ` (the rest: ${moreUrl})` : ''}\n`);
}

const notFound = (what: string): ToolAnswer => ({ ...text(format(M.notFound, { what })), isError: true });

/**
 * The tools every visitor may use: what the portal shows an anonymous visitor, through each
 * domain's service (search, catalog, content, Markdown). Nothing unpublished, internal or retired.
 */
export function registerPublicTools(server: McpServer, app: FastifyInstance): void {
  const origin = () => app.config.publicUrl.replace(/\/+$/, '');

  server.registerTool(
    'search_portal',
    {
      title: 'Search the portal',
      description:
        "Searches the developer portal's site search: API products, API operations, articles, pages, FAQ answers and forum topics. Returns titles, links and snippets.",
      inputSchema: {
        query: z.string().trim().min(1).max(200).describe('Words to search for'),
        type: z.enum(SEARCH_TYPES).optional().describe('Only results of this kind'),
        limit: z.number().int().min(1).max(50).optional().describe('How many results (10 unless told)'),
      },
      annotations: READ_ONLY,
    },
    async ({ query, type, limit }) => {
      const page = await searchDocuments(app.db, {
        q: query,
        ...(type ? { types: [type] } : {}),
        limit: limit ?? 10,
        offset: 0,
        maxResults: app.config.searchResultsMax,
      });
      if (!page.items.length) return text(format(M.noResults, { q: query }));
      const lines = page.items.map((hit) => {
        const link = hit.link ? `${origin()}${hit.link.startsWith('/') ? '' : '/'}${hit.link}` : '';
        const snippet = hit.description.replace(/\s+/g, ' ').trim();
        return `- [${hit.type}] ${link ? `[${hit.title}](${link})` : hit.title}${hit.deprecated ? ' (deprecated)' : ''}${snippet ? `: ${snippet}` : ''}`;
      });
      return text(
        `${page.count}${page.countExact ? '' : '+'} results for “${query}”${page.count > page.items.length ? ` (the first ${page.items.length})` : ''}:\n\n${lines.join('\n')}\n`,
      );
    },
  );

  server.registerTool(
    'list_api_products',
    {
      title: 'List the API products',
      description:
        'Lists the API products of the portal (not retired) with their alias, version and the Markdown of their page. Use an alias with get_api_product or subscribe_application.',
      inputSchema: {},
      annotations: READ_ONLY,
    },
    async () => {
      const products = await publicProducts(app.db);
      const lines = products.map(
        (p) =>
          `- ${p.title}${p.version ? ` ${p.version}` : ''} (alias \`${p.alias}\`${p.deprecated ? ', deprecated' : ''}): ${origin()}/apiProduct/${encodeURIComponent(p.alias)}.md`,
      );
      return text(`# API products\n\n${lines.join('\n')}\n`);
    },
  );

  server.registerTool(
    'get_api_product',
    {
      title: 'Read an API product',
      description:
        "An API product's page as Markdown: its description and its API documentations (use a documentation's alias with get_api_documentation).",
      inputSchema: { product: z.string().trim().min(1).max(200).describe("The product's alias or uuid") },
      annotations: READ_ONLY,
    },
    async ({ product }) => {
      const page = await app.markdownFor(`/apiProduct/${encodeURIComponent(product)}`);
      return page ? markdown(page.body) : notFound(product);
    },
  );

  server.registerTool(
    'get_api_documentation',
    {
      title: "Read an API's documentation",
      description:
        "An API's reference as Markdown: its description, servers (the sandbox), authentication and the list of its operations with their keys. Use get_api_operation for one operation's parameters, schemas and samples.",
      inputSchema: {
        documentation: z.string().trim().min(1).max(200).describe("The documentation's alias or uuid"),
      },
      annotations: READ_ONLY,
    },
    async ({ documentation }) => {
      const pages = await documentationPages(app.db, origin(), documentation);
      if (!pages) return notFound(documentation);
      const operations = pages.markdown.operations.map(([key, section]) => {
        const heading = section.split('\n', 1)[0]!.replace(/^#+\s*/, '');
        const summary = /^\*\*(.+)\*\*$/m.exec(section)?.[1];
        return `- \`${key}\`: ${heading}${summary ? ` (${summary})` : ''}`;
      });
      return markdown(
        `${pages.markdown.header.trimEnd()}\n\n## Operations (key: method path)\n\n${operations.join('\n')}\n`,
        `${pages.base}.md`,
      );
    },
  );

  server.registerTool(
    'get_api_operation',
    {
      title: 'Read one API operation',
      description:
        'One operation of an API documentation as Markdown: its parameters, request body and response schemas with examples, security and scopes, and a request sample.',
      inputSchema: {
        documentation: z.string().trim().min(1).max(200).describe("The documentation's alias or uuid"),
        operation: z
          .string()
          .trim()
          .min(1)
          .max(1000)
          .describe("The operation's key from get_api_documentation (its operationId, or method and path)"),
      },
      annotations: READ_ONLY,
    },
    async ({ documentation, operation }) => {
      const pages = await documentationPages(app.db, origin(), documentation);
      const body = pages ? oneOperation(pages, operation) : undefined;
      return body === undefined ? notFound(`${documentation} ${operation}`) : markdown(body);
    },
  );

  server.registerTool(
    'get_changelog',
    {
      title: 'Read the changelog',
      description: 'The release notes of the API products, newest first; of one product when given.',
      inputSchema: {
        product: z.string().trim().min(1).max(200).optional().describe("A product's alias or uuid"),
      },
      annotations: READ_ONLY,
    },
    async ({ product }) => {
      const entries = await publicChangelog(app.db, product);
      if (product !== undefined && !entries.length) return notFound(product);
      const lines = entries.map((e) => {
        const notes = htmlToMarkdown(e.notesHtml, origin());
        return `## ${e.product.title} ${e.version}${e.releaseDate ? ` (${e.releaseDate})` : ''}\n\n${notes}`;
      });
      return markdown(`# Changelog\n\n${lines.join('\n\n')}\n`);
    },
  );

  server.registerTool(
    'get_faq',
    {
      title: 'Read the FAQ',
      description:
        "The portal's frequently asked questions with their answers; only those whose question or answer holds every given word when `query` is given.",
      inputSchema: {
        query: z.string().trim().max(200).optional().describe('Words the question or answer must hold'),
      },
      annotations: READ_ONLY,
    },
    async ({ query }) => {
      const words = (query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      const faqs = (await publicFaqs(app.db))
        .map((f) => ({ ...f, answer: htmlToMarkdown(f.answerHtml, origin()) }))
        .filter((f) => words.every((w) => `${f.question}\n${f.answer}`.toLowerCase().includes(w)));
      if (!faqs.length) return text(format(M.noResults, { q: query ?? '' }));
      const out = faqs.map((f) => `## ${f.question}${f.category ? ` (${f.category})` : ''}\n\n${f.answer}`);
      return markdown(`# ${en.content.faqTitle}\n\n${out.join('\n\n')}\n`);
    },
  );

  server.registerTool(
    'list_articles',
    {
      title: 'List the articles',
      description: "The portal's published articles (blog), newest first, with their path for get_article.",
      inputSchema: {},
      annotations: READ_ONLY,
    },
    async () => {
      const articles = await publicArticles(app.db);
      const lines = articles.map(
        (a) =>
          `- ${a.title} (${a.created.toISOString().slice(0, 10)}, path \`${a.path}\`)${a.description.trim() ? `: ${a.description.trim().replace(/\s+/g, ' ')}` : ''}`,
      );
      return markdown(`# Articles\n\n${lines.join('\n')}\n`);
    },
  );

  server.registerTool(
    'get_article',
    {
      title: 'Read an article',
      description: 'One published article as Markdown, by its path (from list_articles or search_portal).',
      inputSchema: { path: z.string().trim().min(1).max(500).describe("The article's path, e.g. /blog/…") },
      annotations: READ_ONLY,
    },
    async ({ path }) => {
      const address = path.startsWith('/') ? path : `/${path}`;
      const [article] = await publicArticles(app.db, address);
      if (!article) return notFound(path);
      const page = await app.markdownFor(article.path);
      return page ? markdown(page.body) : notFound(path);
    },
  );
}
