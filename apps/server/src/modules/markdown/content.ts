import { format } from '@portico/contracts/format';
import { localizedPath } from '@portico/contracts/locale-path';
import { DEFAULT_LOCALE, type Locale } from '@portico/contracts/locales';
import type { Db } from '../../db/client.ts';
import { markerOf, translated, translationsOf, type TranslationMarker } from '../../lib/translations.ts';
import {
  documentationTitles,
  findProduct,
  productDocumentations,
  productTranslation,
} from '../catalog/service.ts';
import {
  articleTranslation,
  categoryTranslation,
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
  const [found] = await publicArticles(db, path);
  if (!found) return undefined;
  // The article's translation and its category's, in one query.
  const translations = await translationsOf(db).forKinds(
    { article: [found.uuid], news_category: found.categoryUuid ? [found.categoryUuid] : [] },
    locale,
  );
  const fields = translations.get('article')?.get(found.uuid);
  const category = found.categoryUuid
    ? categoryTranslation(translations.get('news_category')?.get(found.categoryUuid))
    : undefined;
  const article = {
    ...found,
    ...(fields ? articleTranslation(fields) : {}),
    ...(category ? { category: category.name } : {}),
  };
  const marker = markerOf(locale, !!fields);
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
  const rows = await publicFaqs(db);
  // The questions' translations and their categories' (the headings), in one query.
  const translations = await translationsOf(db).forKinds(
    {
      faq: rows.map((f) => f.uuid),
      faq_category: rows.flatMap((f) => (f.categoryUuid ? [f.categoryUuid] : [])),
    },
    locale,
  );
  const faqs = rows.map((f) => {
    const fields = translations.get('faq')?.get(f.uuid);
    const heading = f.categoryUuid
      ? categoryTranslation(translations.get('faq_category')?.get(f.categoryUuid))
      : undefined;
    return {
      ...f,
      ...(fields ? faqTranslation(fields) : {}),
      ...(heading ? { category: heading.name } : {}),
      fallback: markerOf(locale, !!fields).fallback,
    };
  });
  const { markdown: M, content: C } = markdownLabels(locale);
  const out = [`# ${C.faqTitle}`, format(M.htmlPage, { url: `${origin}${localizedPath(locale, FAQ_PAGE)}` })];
  // A new heading where the category changes (by its id: two may share a translated name).
  let category: string | null | undefined;
  for (const faq of faqs) {
    if (faq.categoryUuid !== category) {
      category = faq.categoryUuid;
      out.push(`## ${faq.category ?? M.uncategorised}`);
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
