import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { operationAddress } from '@portico/contracts/documentation-data';
import { FAQ_PAGE } from '../content/service.ts';
import { matchesEtag, mergeVary, strongEtag } from '../../plugins/http-cache.ts';
import { articleMarkdown, faqMarkdown, pageMarkdown, productMarkdown } from './content.ts';
import { documentationPages, oneOperation, wholeDocumentation } from './documentation.ts';
import { markdownLabels } from './labels.ts';
import { llmsSections, llmsText } from './llms.ts';
import { prefersMarkdown } from './negotiation.ts';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@portico/contracts/locales';
import { localizedPath, splitLocalePath } from '@portico/contracts/locale-path';
import { readerLocale, type TranslationMarker } from '../../lib/translations.ts';

/** A page's Markdown and the address of its web page (the Link header's alternate). */
export interface MarkdownPage {
  body: string;
  htmlUrl: string;
  /** A translated page's language marker (decision 063): its text's language is sent as Content-Language. */
  translation?: TranslationMarker;
  /** Some of its parts (FAQ questions) are in the default language: Content-Language names both. */
  partlyFallback?: boolean;
}

/** The data domains (db/data-versions.ts) of every table /llms-full.txt reads (its translations too). */
const LLMS_DOMAINS = ['catalog', 'content', 'pages', 'translations'] as const;

/** llms.txt in another language than the default is sent as that language (Content-Language). */
const languageOf = (locale: Locale): Pick<MarkdownPage, 'translation'> =>
  locale === DEFAULT_LOCALE ? {} : { translation: { langcode: locale, shown: locale, fallback: false } };

const DOCUMENTATION = /^\/documentation\/([^/]+)$/;
const OPERATION = /^\/documentation\/([^/]+)\/operations\/([^/]+)$/;
const PRODUCT = /^\/apiproduct\/([^/]+)(?:\/[^/]+)?$/i;

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * Markdown for every visitor (README.md): documentations and their operations, products, public
 * articles, published pages and the FAQ at their page's path + `.md` or with `Accept:
 * text/markdown` (asked by plugins/web-app.ts before it sends the web app), and `/llms.txt`,
 * `/llms-full.txt`. Only what an anonymous visitor may read, whoever asks: the answers are the
 * same for everyone.
 */
export default fp(
  async (app) => {
    const origin = () => app.config.publicUrl.replace(/\/+$/, '');

    /** The Markdown of a page path (without `.md`), or undefined when no public page has one. */
    async function markdownFor(
      pathname: string,
      locale: Locale = DEFAULT_LOCALE,
    ): Promise<MarkdownPage | undefined> {
      const base = origin();
      const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
      const operation = OPERATION.exec(path);
      if (operation) {
        const [id, key] = [decoded(operation[1]!), decoded(operation[2]!)];
        const pages = id && key ? await documentationPages(app.db, base, id, locale) : undefined;
        const body = pages && key ? oneOperation(pages, key) : undefined;
        return body === undefined || !pages || !key
          ? undefined
          : {
              body,
              htmlUrl: `${base}${operationAddress(pages.base.slice(base.length), '', key)}`,
              translation: pages.translation,
            };
      }
      const documentation = DOCUMENTATION.exec(path);
      if (documentation) {
        const id = decoded(documentation[1]!);
        const pages = id ? await documentationPages(app.db, base, id, locale) : undefined;
        return (
          pages && { body: wholeDocumentation(pages), htmlUrl: pages.base, translation: pages.translation }
        );
      }
      const product = PRODUCT.exec(path);
      if (product) {
        const id = decoded(product[1]!);
        const page = id ? await productMarkdown(app.db, base, id, locale) : undefined;
        return page && { ...page, htmlUrl: `${base}${localizedPath(locale, path)}` };
      }
      if (path.toLowerCase() === FAQ_PAGE) {
        const page = await faqMarkdown(app.db, base, locale);
        return { ...page, htmlUrl: `${base}${localizedPath(locale, FAQ_PAGE)}` };
      }
      const plain = decoded(path);
      if (plain === undefined) return undefined;
      const article = await articleMarkdown(app.db, base, plain, locale);
      if (article !== undefined) return { ...article, htmlUrl: `${base}${localizedPath(locale, path)}` };
      const page = await pageMarkdown(app.db, base, plain, locale);
      return (
        page && {
          body: page.body,
          htmlUrl: `${base}${localizedPath(locale, page.alias)}`,
          ...(page.translation ? { translation: page.translation } : {}),
        }
      );
    }

    function send(request: FastifyRequest, reply: FastifyReply, page: MarkdownPage, type: string) {
      const etag = strongEtag(page.body);
      reply
        .header('Vary', mergeVary(reply.getHeader('vary'), 'Accept'))
        .header('Link', `<${page.htmlUrl}>; rel="alternate"; type="text/html"`)
        // As the pages: stored anywhere, asked again each time (the ETag makes that a 304).
        .header('Cache-Control', 'no-cache')
        .header('ETag', etag);
      if (page.translation) {
        const { shown } = page.translation;
        reply.header(
          'Content-Language',
          page.partlyFallback && shown !== DEFAULT_LOCALE ? `${shown}, ${DEFAULT_LOCALE}` : shown,
        );
      }
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send();
      return reply.status(200).type(type).send(page.body);
    }

    app.decorate('markdownFor', markdownFor);

    app.decorate('answerMarkdown', async (request: FastifyRequest, reply: FastifyReply) => {
      // `/de/documentation/x.md` (or `?langcode=de`): the page in that language.
      const { locale: pathLocale, path: pathname } = splitLocalePath(request.url.split('?', 1)[0] ?? '/');
      const suffixed = /\.md$/i.test(pathname) && pathname.length > 4;
      if (!suffixed && !prefersMarkdown(request.headers.accept)) return false;
      const asked = (request.query as Record<string, unknown> | undefined)?.langcode;
      const locale = asked === undefined ? pathLocale : readerLocale(asked);
      const page = await markdownFor(suffixed ? pathname.slice(0, -3) : pathname, locale);
      if (page) {
        await send(request, reply, page, 'text/markdown; charset=utf-8');
        return true;
      }
      // Accept alone falls back to the page (or its 404); an address in .md names no page.
      if (!suffixed) return false;
      await reply
        .status(404)
        .header('Cache-Control', 'no-cache')
        .type('text/markdown; charset=utf-8')
        .header('Content-Language', locale)
        .send(`# ${markdownLabels(locale).markdown.notFound}\n`);
      return true;
    });

    // llms.txt and llms-full.txt in each language: `/llms.txt`, `/de/llms.txt`, … (the pages' own
    // addresses, their Markdown in that language).
    // Every public page's Markdown in one file per language: built again only when a table it
    // reads changes (the catalog's, the content's and the pages' change counters,
    // db/data-versions.ts, as the cached answers of plugins/http-cache.ts), on any instance.
    const full = new Map<Locale, { stamp: string; body: string }>();
    const fullText = async (locale: Locale) => {
      const parts: string[] = [];
      for (const section of await llmsSections(app.db, locale)) {
        for (const entry of section.entries) {
          const page = await markdownFor(entry.path, locale);
          if (page) parts.push(page.body.trimEnd());
        }
      }
      return `${parts.join('\n\n---\n\n')}\n`;
    };
    for (const locale of LOCALES) {
      const htmlUrl = () => `${origin()}${localizedPath(locale, '/')}`;
      app.get(localizedPath(locale, '/llms.txt'), async (request, reply) => {
        const body = llmsText(await llmsSections(app.db, locale), origin(), locale);
        return send(
          request,
          reply,
          { body, htmlUrl: htmlUrl(), ...languageOf(locale) },
          'text/plain; charset=utf-8',
        );
      });
      app.get(localizedPath(locale, '/llms-full.txt'), async (request, reply) => {
        const versions = await app.dataVersions.forRequest(request);
        const stamp = LLMS_DOMAINS.map((d) => versions.get(d) ?? '0').join(',');
        let built = full.get(locale);
        if (built?.stamp !== stamp) {
          built = { stamp, body: await fullText(locale) };
          full.set(locale, built);
        }
        return send(
          request,
          reply,
          { body: built.body, htmlUrl: htmlUrl(), ...languageOf(locale) },
          'text/plain; charset=utf-8',
        );
      });
    }
  },
  { name: 'markdown', dependencies: ['db', 'http-cache'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** The Markdown of a page path (without `.md`), when a public page has one. */
    markdownFor(pathname: string, locale?: Locale): Promise<MarkdownPage | undefined>;
    /**
     * Answers a page request with Markdown when its path ends in `.md` (a 404 when no public page
     * has one) or its Accept prefers text/markdown and the page has one; false when it did not.
     */
    answerMarkdown(request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
  }
}
