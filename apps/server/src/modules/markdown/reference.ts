import { en } from '@portico/contracts/messages';
import { DEFAULT_LOCALE, LOCALE_TAGS } from '@portico/contracts/locales';
import { format } from '@portico/contracts/format';
import type {
  MediaTypeDetail,
  OperationDetail,
  OperationIndex,
  OperationSummary,
  SecuritySchemeSummary,
} from '@portico/contracts/catalog';
import { exampleFromSchema } from '../../openapi/schema-example.ts';
import { schemaOutline } from './schema-outline.ts';

/**
 * The reference of a stored OpenAPI document as Markdown: the header (title, version, description,
 * the sandbox's servers, authentication with OAuth flows and scopes) and one section per operation
 * (method and path, summary, description, parameters, request body outline, responses with a
 * sample, a request sample). Pure functions: the worker task (documentation-task.ts) calls them.
 */

/** The reference's own words of the `products` area (pages.json `products` in every language). */
export const REFERENCE_PRODUCT_KEYS = [
  'documentationTitle',
  'version',
  'authentication',
  'servers',
  'deprecatedOperation',
  'parameters',
  'location_path',
  'location_query',
  'location_header',
  'location_cookie',
  'name',
  'type',
  'requiredMark',
  'description',
  'requestBody',
  'responses',
  'webhookResponses',
  'requestSamples',
  'deprecatedTag',
] as const;

/**
 * The words of the Markdown pages in one language: a plain object, so that it crosses to the
 * worker thread with the task (labels.ts makes it from pages.json on the main thread).
 */
export interface MarkdownLabels {
  products: Record<(typeof REFERENCE_PRODUCT_KEYS)[number], string>;
  markdown: Record<keyof typeof en.markdown, string>;
  content: { faqTitle: string };
  /** The language's BCP 47 tag: lists are joined by Intl's rules of it ('a or b', 'a oder b'). */
  tag: string;
}

/** The English words, from the contracts catalogue: the default of every function here. */
export const ENGLISH_LABELS: MarkdownLabels = {
  products: Object.fromEntries(
    REFERENCE_PRODUCT_KEYS.map((k) => [k, en.products[k]]),
  ) as MarkdownLabels['products'],
  markdown: { ...en.markdown },
  content: { faqTitle: en.content.faqTitle },
  tag: LOCALE_TAGS[DEFAULT_LOCALE],
};

/** Samples longer than this are cut: a page an assistant reads, not a fixture. */
const MAX_SAMPLE_CHARS = 4000;

/** A table cell: one line, pipes escaped. */
function cell(text: string | null | undefined): string {
  return (text ?? '')
    .replace(/\r?\n+/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

/** A fenced code block whose fence is longer than any backtick run inside. */
export function fence(code: string, language = ''): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${language}\n${code}\n${ticks}`;
}

function plural(template: { one: string; other: string }, count: number): string {
  return format(count === 1 ? template.one : template.other, { count });
}

export function operationCountText(count: number, labels: MarkdownLabels = ENGLISH_LABELS): string {
  const M = labels.markdown;
  return plural({ one: M.operationCount_one, other: M.operationCount }, count);
}

/** The operations of an index in the page's order (tags, then webhooks), each once. */
export function indexOperations(index: OperationIndex): OperationSummary[] {
  const seen = new Set<string>();
  const out: OperationSummary[] = [];
  for (const op of [...index.tags.flatMap((t) => t.operations), ...(index.webhooks ?? [])]) {
    if (seen.has(op.key)) continue;
    seen.add(op.key);
    out.push(op);
  }
  return out;
}

function schemeLines(scheme: SecuritySchemeSummary, M: MarkdownLabels['markdown']): string[] {
  const kind = [scheme.type, scheme.scheme, scheme.in ? `${scheme.in} ${scheme.paramName ?? ''}`.trim() : '']
    .filter(Boolean)
    .join(', ');
  const out = [`- **${scheme.name}** (${kind})${scheme.description ? `: ${cell(scheme.description)}` : ''}`];
  for (const [flow, f] of Object.entries(scheme.flows ?? {})) {
    if (!f) continue;
    out.push(`  - ${format(M.flow, { flow })}`);
    if (f.authorizationUrl) out.push(`    - ${format(M.authorizationUrl, { url: f.authorizationUrl })}`);
    if (f.tokenUrl) out.push(`    - ${format(M.tokenUrl, { url: f.tokenUrl })}`);
    for (const [scope, description] of Object.entries(f.scopes)) {
      out.push(`    - \`${scope}\`${description ? `: ${cell(description)}` : ''}`);
    }
  }
  if (scheme.openIdConnectUrl) out.push(`  - ${scheme.openIdConnectUrl}`);
  return out;
}

/** The documentation's header: `# Title`, version, description, servers, authentication. */
export function documentationHeader(
  index: OperationIndex,
  meta: { title: string; version: string | null; htmlUrl: string },
  labels: MarkdownLabels = ENGLISH_LABELS,
): string {
  const { products: P, markdown: M } = labels;
  const out: string[] = [`# ${format(P.documentationTitle, { title: meta.title })}`];
  const version = meta.version ?? index.version;
  if (version) out.push(format(P.version, { version }));
  out.push(format(M.htmlPage, { url: meta.htmlUrl }));
  if (index.description?.trim()) out.push(index.description.trim());
  if (index.servers.length) {
    out.push(`## ${M.sandboxServers}`, index.servers.map((url) => `- ${url}`).join('\n'));
  }
  if (index.securitySchemes.length) {
    out.push(`## ${P.authentication}`, index.securitySchemes.flatMap((s) => schemeLines(s, M)).join('\n'));
  }
  out.push(
    operationCountText(index.operationCount + (index.webhookCount ?? index.webhooks?.length ?? 0), labels),
  );
  return out.join('\n\n');
}

function sampleOf(media: MediaTypeDetail, doc: unknown, M: MarkdownLabels['markdown']): string | undefined {
  let value: unknown = media.example;
  if (value === undefined && media.examples) {
    value = Object.values(media.examples).find((e) => e && e.value !== undefined)?.value;
  }
  if (value === undefined && media.schema) {
    try {
      value = exampleFromSchema(media.schema, doc);
    } catch {
      return undefined;
    }
  }
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  if (text === undefined) return undefined;
  return text.length > MAX_SAMPLE_CHARS
    ? `${text.slice(0, MAX_SAMPLE_CHARS)}\n${format(M.sampleCut, { count: MAX_SAMPLE_CHARS })}`
    : text;
}

type Resolve = (ref: string) => unknown;

function mediaParts(
  content: Record<string, MediaTypeDetail>,
  doc: unknown,
  level: string,
  resolve: Resolve,
  M: MarkdownLabels['markdown'],
): string[] {
  const out: string[] = [];
  for (const [type, media] of Object.entries(content)) {
    out.push(`${level} \`${type}\``);
    if (media.schema) out.push(`${M.schemaOutline}:`, fence(schemaOutline(media.schema, resolve), 'ts'));
    const sample = sampleOf(media, doc, M);
    if (sample !== undefined) out.push(`${M.sample}:`, fence(sample, /json/i.test(type) ? 'json' : ''));
  }
  return out;
}

/**
 * One operation as a section: `## METHOD path` (the level given), then its texts. `doc` is the
 * stored document, for the `$ref`s left in its schemas (circular ones) when samples are made.
 */
export function operationSection(
  op: OperationDetail,
  doc: unknown,
  options: { level?: number; markdownUrl?: string; labels?: MarkdownLabels } = {},
): string {
  const labels = options.labels ?? ENGLISH_LABELS;
  const { products: P, markdown: M } = labels;
  const h = '#'.repeat(options.level ?? 2);
  const resolve: Resolve = (ref) => (Object.hasOwn(op.refs, ref) ? op.refs[ref] : undefined);
  const sub = `${h}#`;
  const out: string[] = [`${h} ${op.method.toUpperCase()} ${op.path}`];
  const lead: string[] = [];
  if (op.summary) lead.push(`**${op.summary.trim()}**`);
  if (op.deprecated) lead.push(`_${P.deprecatedOperation}_`);
  if (lead.length) out.push(lead.join(' '));
  if (op.description?.trim()) out.push(op.description.trim());
  const facts: string[] = [];
  if (op.operationId) facts.push(`- ${M.operationId}: \`${op.operationId}\``);
  if (op.server) facts.push(`- ${P.servers}: ${op.server}`);
  if (op.security.length) {
    const alternatives = op.security.map((req) =>
      req.map((s) => (s.scopes.length ? `${s.scheme} (${s.scopes.join(', ')})` : s.scheme)).join(' + '),
    );
    const either = new Intl.ListFormat(labels.tag, { type: 'disjunction' }).format(alternatives);
    facts.push(`- ${P.authentication}: ${either}`);
  } else {
    facts.push(`- ${P.authentication}: ${M.noAuthentication}`);
  }
  if (options.markdownUrl) facts.push(`- ${format(M.operationMarkdown, { url: options.markdownUrl })}`);
  out.push(facts.join('\n'));

  if (op.parameters.length) {
    const rows = op.parameters.map((p) => {
      const type = p.schema ? schemaOutline(p.schema, resolve).replace(/\s*\n\s*/g, ' ') : '';
      return `| \`${cell(p.name)}\` | ${P[`location_${p.in}`]} | ${cell(type)} | ${p.required ? M.yes : M.no} | ${cell(p.description)} |`;
    });
    out.push(
      `${sub} ${P.parameters}`,
      [
        `| ${P.name} | ${M.inLabel} | ${P.type} | ${P.requiredMark} | ${P.description} |`,
        '| --- | --- | --- | --- | --- |',
        ...rows,
      ].join('\n'),
    );
  }
  if (op.requestBody) {
    out.push(`${sub} ${P.requestBody}${op.requestBody.required ? ` (${M.requestBodyRequired})` : ''}`);
    if (op.requestBody.description?.trim()) out.push(op.requestBody.description.trim());
    out.push(...mediaParts(op.requestBody.content, doc, `${sub}#`, resolve, M));
  }
  if (op.responses.length) {
    out.push(`${sub} ${op.webhook ? P.webhookResponses : P.responses}`);
    for (const r of op.responses) {
      out.push(`${sub}# ${r.status}${r.description ? ` ${cell(r.description)}` : ''}`);
      out.push(...mediaParts(r.content, doc, `${sub}##`, resolve, M));
    }
  }
  const sample = op.samples[0];
  if (sample) out.push(`${sub} ${P.requestSamples} (${sample.label})`, fence(sample.code, sample.language));
  return out.join('\n\n');
}
