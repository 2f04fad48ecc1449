import { format } from '@portico/contracts/format';
import { localizedPath } from '@portico/contracts/locale-path';
import { DEFAULT_LOCALE, type Locale } from '@portico/contracts/locales';
import type { Db } from '../../db/client.ts';
import { markerOf, translated, type TranslationMarker } from '../../lib/translations.ts';
import {
  documentationTitles,
  findProduct,
  productDocumentations,
  productTranslation,
} from '../catalog/service.ts';
import {
  articleTranslation,
  FAQ_PAGE,
  faqTranslation,
  publicArticles,
  publicFaqs,
} from '../content/service.ts';
import { normalizeAlias, pageTranslation, publicPage } from '../pages/service.ts';
import { htmlToMarkdown } from './html.ts';
import { markdownLabels } from './labels.ts';

/**
 * The Markdown of the portal's content pages, from the data their pages show and only what every
 * visitor may read (the modules' services): products not retired, published public articles,
 * published pages, published FAQ questions. In the reader's language (decision 063): each item's
 * translation merged as its public route merges it (else its default language's text, marked as
 * a fallback), the words of the page in that language, the links under its prefix (`/de/…`).
 */

/** A content page's Markdown, and in another language than the default what its text is in. */
export interface ContentMarkdown {
  body: string;
  translation?: TranslationMarker;
  /** Some of its parts (FAQ questions) have no translation: shown in the default language. */
  partlyFallback?: boolean;
}

/** The marker of one item in `locale`; none in the default language (as the documentation's). */
const markerIn = (locale: Locale, marker: TranslationMarker) =>
  locale === DEFAULT_LOCALE ? {} : { translation: marker };

/** `/apiProduct/<uuid or alias>` (the web app's product page). */
export async function productMarkdown(
  db: Db,
  origin: string,
  idOrAlias: string,
  locale: Locale = DEFAULT_LOCALE,
): Promise<ContentMarkdown | undefined> {
  const found = await findProduct(db, idOrAlias);
  if (!found || found.retired) return undefined;
  const { product, marker } = (
    await translated(
      db,
      'api_product',
      [found],
      (p) => p.uuid,
      locale,
      (p, t) => ({ ...p, ...productTranslation(t) }),
      (product, marker) => ({ product, marker }),
    )
  )[0]!;
  const { products: P, markdown: M } = markdownLabels(locale);
  const out = [`# ${product.title}`];
  if (product.version) out.push(format(P.version, { version: product.version }));
  if (product.deprecated) out.push(`_${M.deprecatedProduct}_`);
  out.push(
    format(M.htmlPage, {
      url: `${origin}${localizedPath(locale, `/apiProduct/${encodeURIComponent(product.alias)}`)}`,
    }),
  );
  const description = htmlToMarkdown(product.description, origin);
  if (description) out.push(description);
  const docs = await productDocumentations(db, product.id);
  if (docs.length) {
    const titles = await documentationTitles(
      db,
      docs.map((d) => d.uuid),
      locale,
    );
    out.push(
      `## ${M.documentations}`,
      docs
        .map(
          (d) =>
            `- [${format(P.documentationTitle, { title: titles.get(d.uuid) ?? d.title })}](${origin}${localizedPath(locale, `/documentation/${encodeURIComponent(d.alias)}`)}.md)`,
        )
        .join('\n'),
    );
  }
  return { body: out.join('\n\n') + '\n', ...markerIn(locale, marker) };
}

/** A public article at its path (`/blog/<slug>`). */
export async function articleMarkdown(
  db: Db,
  origin: string,
  path: string,
  locale: Locale = DEFAULT_LOCALE,
): Promise<ContentMarkdown | undefined> {
  const found = await publicArticles(db, path);
  if (!found.length) return undefined;
  const { article, marker } = (
    await translated(
      db,
      'article',
      found.slice(0, 1),
      (a) => a.uuid,
      locale,
      (a, t) => ({ ...a, ...articleTranslation(t) }),
      (article, marker) => ({ article, marker }),
    )
  )[0]!;
  const M = markdownLabels(locale).markdown;
  const byline = [
    format(M.published, { date: article.created.toISOString().slice(0, 10) }),
    article.author ? format(M.by, { author: article.author }) : '',
  ]
    .filter(Boolean)
    .join(' ');
  const out = [`# ${article.title}`, byline];
  if (article.category) out.push(format(M.category, { category: article.category }));
  out.push(format(M.htmlPage, { url: `${origin}${localizedPath(locale, article.path)}` }));
  if (article.description.trim()) out.push(`> ${article.description.trim().replace(/\r?\n/g, ' ')}`);
  const body = htmlToMarkdown(article.bodyHtml, origin);
  if (body) out.push(body);
  return { body: out.join('\n\n') + '\n', ...markerIn(locale, marker) };
}

/** A published basic page by any of its aliases, with its canonical alias. */
export async function pageMarkdown(
  db: Db,
  origin: string,
  path: string,
  locale: Locale = DEFAULT_LOCALE,
): Promise<(ContentMarkdown & { alias: string }) | undefined> {
  const alias = normalizeAlias(path);
  const found = alias ? await publicPage(db, alias) : undefined;
  if (!found) return undefined;
  const { page, marker } = (
    await translated(
      db,
      'page',
      [found],
      (p) => p.uuid,
      locale,
      (p, t) => ({ ...p, ...pageTranslation(t) }),
      (page, marker) => ({ page, marker }),
    )
  )[0]!;
  const M = markdownLabels(locale).markdown;
  const out = [
    `# ${page.title}`,
    format(M.htmlPage, { url: `${origin}${localizedPath(locale, page.alias)}` }),
  ];
  const body = htmlToMarkdown(page.body, origin);
  if (body) out.push(body);
  return { body: out.join('\n\n') + '\n', alias: page.alias, ...markerIn(locale, marker) };
}

/**
 * The FAQ page: its published questions by category, in the page's order. In another language
 * each question is its translation (as the FAQ's JSON:API), else the default language's: the page
 * is marked a fallback when none is translated, `partlyFallback` when only some are.
 */
export async function faqMarkdown(
  db: Db,
  origin: string,
  locale: Locale = DEFAULT_LOCALE,
): Promise<ContentMarkdown> {
  const faqs = await translated(
    db,
    'faq',
    await publicFaqs(db),
    (f) => f.uuid,
    locale,
    (f, t) => ({ ...f, ...faqTranslation(t) }),
    (faq, marker) => ({ ...faq, fallback: marker.fallback }),
  );
  const { markdown: M, content: C } = markdownLabels(locale);
  const out = [`# ${C.faqTitle}`, format(M.htmlPage, { url: `${origin}${localizedPath(locale, FAQ_PAGE)}` })];
  let category: string | null | undefined;
  for (const faq of faqs) {
    if (faq.category !== category) {
      category = faq.category;
      out.push(`## ${category ?? M.uncategorised}`);
    }
    out.push(`### ${faq.question}`);
    const answer = htmlToMarkdown(faq.answerHtml, origin);
    if (answer) out.push(answer);
  }
  const body = out.join('\n\n') + '\n';
  if (locale === DEFAULT_LOCALE) return { body };
  const fallbacks = faqs.filter((f) => f.fallback).length;
  const allFallback = fallbacks > 0 && fallbacks === faqs.length;
  return {
    body,
    translation: markerOf(locale, !allFallback),
    ...(fallbacks > 0 && !allFallback ? { partlyFallback: true } : {}),
  };
}
