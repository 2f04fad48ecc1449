import { sandboxCredential } from '@portico/contracts/catalog';
import type {
  JsonSchema,
  OperationDetail,
  OperationIndex,
  OperationSummary,
} from '@portico/contracts/catalog';
import {
  countLabel,
  FIRST_SCREEN_ID,
  operationAddress,
  operationUrl,
} from '@portico/contracts/documentation-data';
import { GET_TOKEN_API_TITLE } from '@portico/contracts/constants';
import { DEFAULT_LOCALE, type Locale } from '@portico/contracts/locales';
import { LRUCache } from 'lru-cache';
import { texts, type Texts, siteTitle } from '../../lib/i18n.ts';
import type { Db } from '../../db/client.ts';
import { escapeHtml } from '../../lib/html.ts';
import { readDocumentText } from '../../openapi/document-texts.ts';
import { operationDetailText } from './downloads.ts';
import { localizedPath } from '@portico/contracts/locale-path';
import { translationsOf } from '../../lib/translations.ts';
import { documentationTranslation, translatedIndex } from './documentation-translations.ts';
import { documentationProducts, findDocumentation } from './repo.ts';

/**
 * The documentation page's first screen, written by the server into the page's HTML (decision
 * 043): the title, the reference's first operations as links, and, when the address names one
 * (`?operation=<key>`), that operation's details. A visitor reads and opens operations before the
 * web app's JavaScript has run (and without it); the app takes the screen over once its own
 * reference is rendered (apps/web/src/lib/first-screen.ts). Plain HTML and a small style sheet of
 * its own: nothing here waits for a script or the app's styles.
 */

/** The screen's labels in the page's language (the server's `pages` texts, `products.*`). */
type T = Texts;
const textsOf = (locale: Locale): T => texts(locale, 'pages', 'products');

/** Rows of the first screen: more than a tall window shows, few enough to write in a blink. */
export const FIRST_SCREEN_ROWS = 30;

/**
 * Operations whose details come with the first screen: the first ones, which a visitor most likely
 * opens first (the app prefetches as many, api-reference.tsx).
 */
export const FIRST_SCREEN_DETAILS = 4;

function countText(t: T, index: OperationIndex): string {
  return countLabel(
    { operations: index.operationCount, webhooks: index.webhookCount ?? index.webhooks?.length ?? 0 },
    (message, count) => t(message, { count }),
  );
}

function methodBadge(op: OperationSummary): string {
  return `<span class="fs-method fs-${escapeHtml(op.method)}">${escapeHtml(op.method.toUpperCase())}</span>`;
}

function operationLine(op: OperationSummary): string {
  const summary = op.summary ? `<span class="fs-summary">${escapeHtml(op.summary)}</span>` : '';
  return `${methodBadge(op)}<span class="fs-path">${escapeHtml(op.path)}</span>${summary}`;
}

/** The groups of the first rows, as the app lists them: tags in order, then the webhooks. */
function firstGroups(
  t: T,
  index: OperationIndex,
  limit: number,
): { name: string; operations: OperationSummary[] }[] {
  const groups = [
    ...index.tags.map((t) => ({ name: t.name, operations: t.operations })),
    ...(index.webhooks?.length ? [{ name: t('webhooks'), operations: index.webhooks }] : []),
  ];
  const out: { name: string; operations: OperationSummary[] }[] = [];
  let left = limit;
  for (const group of groups) {
    if (left <= 0) break;
    const operations = group.operations.slice(0, left);
    left -= operations.length;
    out.push({ name: group.name, operations });
  }
  return out;
}

/** The keys of the operations whose details come with the first screen. */
export function embeddedOperationKeys(index: OperationIndex, rows = FIRST_SCREEN_ROWS): string[] {
  const keys = firstGroups(textsOf(DEFAULT_LOCALE), index, rows).flatMap((g) =>
    g.operations.map((o) => o.key),
  );
  return [...new Set(keys)].slice(0, FIRST_SCREEN_DETAILS);
}

/**
 * The first rows: an operation whose details came with the screen opens in place (`<details>`:
 * no script, no request), any other is a link to the server's rendering of it.
 */
function firstRows(
  t: T,
  index: OperationIndex,
  pathname: string,
  limit: number,
  embedded: ReadonlyMap<string, OperationDetail>,
): string {
  const out: string[] = [];
  for (const group of firstGroups(t, index, limit)) {
    out.push(`<h3 class="fs-tag">${escapeHtml(group.name)}</h3><ul class="fs-list">`);
    for (const op of group.operations) {
      const key = escapeHtml(op.key);
      const detail = embedded.get(op.key);
      out.push(
        detail
          ? `<li><details class="fs-row" data-operation-key="${key}"><summary class="fs-operation">${operationLine(
              op,
            )}</summary><div class="fs-details">${details(t, detail)}</div></details></li>`
          : `<li><a class="fs-operation" data-operation-key="${key}" href="${escapeHtml(
              operationAddress(pathname, '', op.key),
            )}">${operationLine(op)}</a></li>`,
      );
    }
    out.push('</ul>');
  }
  return out.join('');
}

function schemaType(schema: JsonSchema | null): string {
  if (!schema || typeof schema !== 'object') return '';
  const type = schema['type'];
  if (Array.isArray(type)) return type.join(' | ');
  if (typeof type === 'string') {
    const items = schema['items'];
    return type === 'array' &&
      items &&
      typeof items === 'object' &&
      typeof (items as { type?: unknown }).type === 'string'
      ? `array of ${(items as { type: string }).type}`
      : type;
  }
  return '';
}

/** Descriptions as the document wrote them (the app renders their Markdown once it has run). */
function prose(text: string | null, className = 'fs-text'): string {
  return text ? `<p class="${className}">${escapeHtml(text)}</p>` : '';
}

/** One operation's details: what the app's details show first, without the interactive parts. */
function details(t: T, op: OperationDetail): string {
  const parts: string[] = [prose(op.description)];
  if (op.parameters.length) {
    parts.push(
      `<h4>${escapeHtml(t('parameters'))}</h4><table class="fs-table"><thead><tr><th>${escapeHtml(
        t('name'),
      )}</th><th>${escapeHtml(t('type'))}</th><th>${escapeHtml(t('description'))}</th></tr></thead><tbody>`,
    );
    for (const p of op.parameters) {
      const location = t('parametersIn', { location: t(`location_${p.in}`) });
      parts.push(
        `<tr><td><code>${escapeHtml(p.name)}</code>${p.required ? ` <em>${escapeHtml(t('required'))}</em>` : ''}<br><small>${escapeHtml(
          location,
        )}</small></td><td>${escapeHtml(schemaType(p.schema))}</td><td>${escapeHtml(p.description ?? '')}</td></tr>`,
      );
    }
    parts.push('</tbody></table>');
  }
  if (op.requestBody) {
    parts.push(`<h4>${escapeHtml(t('requestBody'))}</h4>`, prose(op.requestBody.description));
    const types = Object.keys(op.requestBody.content);
    if (types.length)
      parts.push(
        `<p class="fs-text">${escapeHtml(t('contentType'))}: <code>${escapeHtml(types.join(', '))}</code></p>`,
      );
  }
  if (op.responses.length) {
    parts.push(
      `<h4>${escapeHtml(op.webhook ? t('webhookResponses') : t('responses'))}</h4><ul class="fs-responses">`,
    );
    for (const r of op.responses) {
      parts.push(
        `<li data-response="${escapeHtml(r.status)}"><strong>${escapeHtml(r.status)}</strong> ${escapeHtml(
          r.description ?? '',
        )}</li>`,
      );
    }
    parts.push('</ul>');
  }
  const sample = op.samples[0];
  if (sample) {
    parts.push(
      `<h4>${escapeHtml(t('requestSamples'))}</h4><pre class="fs-sample"><code>${escapeHtml(sample.code)}</code></pre>`,
    );
  }
  return parts.join('');
}

// A row wraps instead of squeezing (as the app's reference.module.css): the path keeps its text's
// width, a summary that does not fit beside it goes under it (issue 26).
const STYLE = `<style id="${FIRST_SCREEN_ID}-style">
body{margin:0}#first-screen,#first-screen *,#first-screen *::before,#first-screen *::after{box-sizing:border-box}
#first-screen{font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#212529;line-height:1.55}
#first-screen .fs-header{border-bottom:1px solid #dee2e6;background:#fff}
#first-screen .fs-top{height:38px;background:#f8f9fa}
#first-screen .fs-bar{height:62px;display:flex;align-items:center;padding:0 16px}
#first-screen .fs-site{font-size:20px;font-weight:700;color:inherit;text-decoration:none}
#first-screen .fs-main{max-width:1320px;margin:0 auto;padding:32px 16px}
#first-screen h1{font-size:34px;line-height:1.3;margin:0 0 12px}
#first-screen h2{font-size:26px;margin:24px 0 8px}
#first-screen h3{font-size:20px;margin:20px 0 8px;padding-bottom:6px;border-bottom:1px solid #dee2e6}
#first-screen h4{font-size:15px;margin:16px 0 6px}
#first-screen .fs-dim{color:#5c636a;font-size:14px;margin:0 0 8px}
#first-screen .fs-list{list-style:none;margin:0;padding:0}
#first-screen .fs-operation{display:flex;flex-wrap:wrap;gap:4px 10px;align-items:center;padding:8px 10px;margin:4px 0;border:1px solid #dee2e6;border-radius:6px;color:inherit;text-decoration:none;min-height:28px}
#first-screen .fs-operation:hover,#first-screen .fs-operation:focus-visible{background:#f1f3f5}
#first-screen .fs-operation[aria-current]{background:#e7f5ff;border-color:#74c0fc}
#first-screen .fs-method{display:inline-block;min-width:58px;text-align:center;font-size:12px;font-weight:700;color:#fff;border-radius:4px;padding:2px 6px;background:#495057}
#first-screen .fs-get{background:#237a35}#first-screen .fs-post{background:#1864ab}#first-screen .fs-put{background:#b8440b}
#first-screen .fs-patch{background:#087f5b}#first-screen .fs-delete{background:#c92a2a}
#first-screen .fs-path{flex:0 1 auto;max-width:calc(100% - 80px);font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:14px;overflow-wrap:anywhere}
#first-screen .fs-summary{flex:0 1 auto;min-width:0;color:#5c636a;font-size:14px}
#first-screen .fs-row>summary{list-style:none;cursor:pointer}
#first-screen .fs-row>summary::-webkit-details-marker{display:none}
#first-screen .fs-row[open]>summary{border-radius:6px 6px 0 0;margin-bottom:0}
#first-screen .fs-details{border:1px solid #dee2e6;border-top:0;border-radius:0 0 6px 6px;padding:8px 16px 12px;margin-bottom:8px}
#first-screen .fs-crumbs{font-size:14px;margin-bottom:16px;color:#5c636a}
#first-screen .fs-crumbs a{color:#1c7ed6;text-decoration:none}
#first-screen .fs-small{font-size:15px;margin:16px 0 8px}
#first-screen .fs-downloads{display:flex;flex-wrap:wrap;gap:8px;margin-bottom:24px}
#first-screen .fs-downloads a{border:1px solid #ced4da;border-radius:4px;padding:6px 14px;font-size:14px;font-weight:600;color:#212529;text-decoration:none}
#first-screen .fs-line{display:flex;gap:10px;align-items:center;flex-wrap:wrap}
#first-screen .fs-badge{border:1px solid #1c7ed6;color:#1c7ed6;border-radius:999px;padding:0 10px;font-size:12px;font-weight:700}
#first-screen .fs-label{font-size:14px;font-weight:600;margin:8px 0 0}
#first-screen .fs-mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:14px;margin:0}
#first-screen .fs-scheme{font-size:14px;margin:4px 0 0}
#first-screen .fs-count{margin-top:16px}
#first-screen .fs-open{border:1px solid #dee2e6;border-radius:6px;padding:12px 16px;margin:8px 0 16px}
#first-screen .fs-open>.fs-line{display:flex;gap:10px;align-items:center;flex-wrap:wrap}
#first-screen .fs-text{white-space:pre-line;font-size:14px;margin:6px 0}
#first-screen .fs-table{border-collapse:collapse;font-size:14px;width:100%}
#first-screen .fs-table th,#first-screen .fs-table td{border:1px solid #dee2e6;padding:4px 8px;text-align:left;vertical-align:top}
#first-screen .fs-responses{padding-left:18px;font-size:14px}
#first-screen .fs-sample{background:#f1f3f5;padding:10px;border-radius:6px;overflow:auto;font-size:13px}
</style>`;

/** What the page shows above its reference: the breadcrumb's product and the downloads. */
export interface PageTop {
  /** The documentation's alias, for its download links. */
  alias: string;
  /** The documentation's own version (the app shows it under the title). */
  version: string | null;
  sourceFormat: string | null;
  /** The product of the breadcrumb: the one the address names, else the first. */
  product?: { title: string; alias: string };
}

export interface FirstScreenInput {
  /** The page's path ('/documentation/<alias or uuid>'), for the operations' links. */
  pathname: string;
  title: string;
  index: OperationIndex;
  /** The operation the address names, when it exists. */
  open?: OperationDetail;
  /** Details of the first operations (embeddedOperationKeys), by key. */
  embedded?: ReadonlyMap<string, OperationDetail>;
  top?: PageTop;
  rows?: number;
  /** The page's language: the screen's labels and links (its texts come translated). */
  locale?: Locale;
}

/** The breadcrumb, the title, the version and the downloads, as the app's page begins. */
function pageTop(
  t: T,
  locale: Locale,
  title: string,
  index: OperationIndex,
  top: PageTop | undefined,
): string {
  const out: string[] = [];
  const product = top?.product;
  // As the app: the Get Token API has no breadcrumb.
  if (product && title !== GET_TOKEN_API_TITLE) {
    const productPath = localizedPath(locale, `/apiProduct/${encodeURIComponent(product.alias)}`);
    out.push(
      `<nav aria-label="${escapeHtml(texts(locale, 'pages')('site.breadcrumb'))}" class="fs-crumbs"><a href="${escapeHtml(localizedPath(locale, '/apiProducts'))}">${escapeHtml(t('breadcrumbProducts'))}</a> / ` +
        `<a href="${escapeHtml(productPath)}">${escapeHtml(product.title)}</a> / ` +
        `<a href="${escapeHtml(`${productPath}/documentation`)}">${escapeHtml(t('breadcrumbDocumentation'))}</a> / ` +
        `<span aria-current="page">${escapeHtml(title)}</span></nav>`,
    );
  }
  out.push(`<h1>${escapeHtml(t('documentationTitle', { title }))}</h1>`);
  const version = top ? top.version : index.version;
  if (version) out.push(`<p class="fs-dim">${escapeHtml(t('version', { version }))}</p>`);
  if (top) {
    // The same addresses the app's buttons download (api/apidocs, documentation-routes.ts).
    const base = `/api/apidocs/${encodeURIComponent(top.alias)}/download`;
    const links: [string, string][] = [
      [`${base}/original`, t('downloadOriginal', { format: (top.sourceFormat ?? 'json').toUpperCase() })],
      [`${base}/openapi.json`, t('downloadJson')],
      [`${base}/openapi.yaml`, t('downloadYaml')],
    ];
    out.push(
      `<h2 class="fs-small" id="fs-downloads">${escapeHtml(t('openApiDocumentations'))}</h2>` +
        `<div class="fs-downloads" role="group" aria-labelledby="fs-downloads">` +
        links
          .map(([href, label]) => `<a href="${escapeHtml(href)}" download>${escapeHtml(label)}</a>`)
          .join('') +
        '</div>',
    );
  }
  return out.join('');
}

/** The reference's header: its version, the API's description, servers and authentication. */
function referenceHeader(t: T, index: OperationIndex): string {
  const out: string[] = [
    `<div class="fs-line"><h2 id="fs-reference">${escapeHtml(t('reference'))}</h2>` +
      (index.version ? `<span class="fs-badge">${escapeHtml(index.version)}</span>` : '') +
      '</div>',
    prose(index.description),
  ];
  if (index.servers.length) {
    out.push(
      `<p class="fs-label">${escapeHtml(t('servers'))}</p>` +
        index.servers.map((url) => `<p class="fs-mono">${escapeHtml(url)}</p>`).join(''),
    );
  }
  if (index.securitySchemes.length) {
    out.push(`<p class="fs-label">${escapeHtml(t('authentication'))}</p>`);
    for (const scheme of index.securitySchemes) {
      const kind = [
        scheme.type,
        scheme.scheme,
        scheme.in ? `${scheme.in} ${scheme.paramName ?? ''}`.trim() : '',
      ]
        .filter(Boolean)
        .join(', ');
      const flows = Object.entries(scheme.flows ?? {}).map(([flow, f]) => {
        const scopes = f && Object.keys(f.scopes).length ? ` [${Object.keys(f.scopes).join(', ')}]` : '';
        return `<p class="fs-mono fs-dim">${escapeHtml(`${flow}: ${f?.tokenUrl ?? f?.authorizationUrl ?? ''}${scopes}`)}</p>`;
      });
      out.push(
        `<p class="fs-scheme"><strong>${escapeHtml(scheme.name)}</strong> (${escapeHtml(kind)})</p>` +
          `<p class="fs-dim">${escapeHtml(t(`credential_${sandboxCredential(scheme)}`))}</p>${flows.join('')}`,
      );
    }
  }
  return out.join('');
}

/** The first screen's HTML: a style sheet and one element, `#first-screen`, before the app's root. */
export function renderFirstScreen({
  pathname,
  title,
  index,
  open,
  embedded = new Map(),
  top,
  rows = FIRST_SCREEN_ROWS,
  locale = DEFAULT_LOCALE,
}: FirstScreenInput): string {
  const t = textsOf(locale);
  const opened = open
    ? `<article class="fs-open" data-operation-key="${escapeHtml(open.key)}" aria-label="${escapeHtml(
        `${open.method.toUpperCase()} ${open.path}`,
      )}"><div class="fs-line">${operationLine(open)}</div>${details(t, open)}</article>`
    : '';
  return (
    `${STYLE}<div id="${FIRST_SCREEN_ID}"><header class="fs-header"><div class="fs-top"></div><div class="fs-bar">` +
    `<a class="fs-site" href="${escapeHtml(localizedPath(locale, '/'))}">${escapeHtml(siteTitle(locale))}</a></div></header><main class="fs-main">${pageTop(t, locale, title, index, top)}` +
    `<section aria-labelledby="fs-reference">${referenceHeader(t, index)}` +
    `<p class="fs-dim fs-count">${escapeHtml(countText(t, index))}</p>${opened}${firstRows(t, index, pathname, rows, embedded)}</section></main></div>`
  );
}

/** The first screen's HTML and the page's document title (plain text). */
export interface FirstScreen {
  html: string;
  title: string;
  /**
   * The details the screen opens in place (its first operations), as the app asks for them: the
   * HTML preloads them, so that the app has them when it takes over (an operation opened on the
   * first screen stays open) or when one of them is opened in the app (decision 043). None beside a
   * deep link, so never one the page's own data preloads already name (plugins/data-preloads.ts).
   */
  preloads: string[];
}

/** Parsed operation indexes by documentation and content: the first rows need only their head. */
const indexes = new LRUCache<string, Promise<OperationIndex | undefined>>({ max: 16 });

async function operationIndex(db: Db, id: number, hash: string | null): Promise<OperationIndex | undefined> {
  const key = `${id}:${hash ?? ''}`;
  let hit = indexes.get(key);
  if (!hit) {
    hit = readDocumentText(db, id, 'operation_index').then((text) =>
      text ? (JSON.parse(text) as OperationIndex) : undefined,
    );
    indexes.set(key, hit);
    hit.catch(() => indexes.delete(key));
  }
  return hit;
}

/**
 * The first screen of `/documentation/<id>` (an alias or a uuid), with the operation named by
 * `operationKey` opened; undefined when there is no such documentation or it has no reference
 * (the app then shows what it shows for those).
 */
export async function documentationFirstScreen(
  db: Db,
  pathname: string,
  id: string,
  search: string,
  locale: Locale = DEFAULT_LOCALE,
): Promise<FirstScreen | undefined> {
  const doc = await findDocumentation(db, id);
  if (!doc) return undefined;
  const stored = await operationIndex(db, doc.id, doc.content_hash);
  if (!stored) return undefined;
  // In the page's language (decision 063): the documentation's translation, the product's title.
  const translation = await documentationTranslation(db, doc.uuid, locale);
  const index = translatedIndex(stored, translation.fields);
  const title = translation.fields?.title || doc.title;
  const query = new URLSearchParams(search);
  const operationKey = query.get('operation') || undefined;
  const products = await documentationProducts(db, doc.id);
  const product = products.find((p) => p.uuid === query.get('product')) ?? products[0];
  const top: PageTop = {
    alias: doc.alias,
    version: doc.version,
    sourceFormat: doc.source_format,
    product: product && {
      title:
        (await translationsOf(db).forItems('api_product', [product.uuid], locale)).get(product.uuid)?.title ||
        product.title,
      alias: product.alias,
    },
  };
  // Worked out in the worker pool the first time, then from the bounded cache (decision 017).
  const detail = async (key: string) => {
    const text = await operationDetailText(db, doc.id, doc.content_hash, key);
    return text === undefined ? undefined : (JSON.parse(text) as OperationDetail);
  };
  const [open, ...first] = await Promise.all([
    operationKey ? detail(operationKey) : undefined,
    // One that cannot be worked out is a link instead.
    ...embeddedOperationKeys(index).map((key) => detail(key).catch(() => undefined)),
  ]);
  const embedded = new Map(first.flatMap((d) => (d ? [[d.key, d] as const] : [])));
  return {
    html: renderFirstScreen({
      pathname: localizedPath(locale, pathname),
      title,
      index,
      open,
      embedded,
      top,
      locale,
    }),
    // As the app's PageTitle writes it.
    title: `${textsOf(locale)('documentationTitle', { title })} | ${siteTitle(locale)}`,
    // Not beside a deep link: the app opens that one and prefetches none of the first ones.
    preloads: operationKey ? [] : [...embedded.keys()].map((key) => operationUrl(doc.alias, key)),
  };
}
