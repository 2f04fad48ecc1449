import { en } from '@portico/contracts/messages';
import { LOCALE_TAGS, LOCALES, type Locale } from '@portico/contracts/locales';
import { texts } from '../../lib/i18n.ts';
import { REFERENCE_PRODUCT_KEYS, type MarkdownLabels } from './reference.ts';

/**
 * The Markdown pages' words in `locale` (issue 30): pages.json's `markdown`, `content` and the
 * reference's `products` texts as unfilled templates (reference.ts and content.ts fill them), a
 * plain object that the documentation task takes to the worker thread. English is the catalogue's
 * wording byte for byte (i18n.test.ts), so an English page is as it was.
 */
function labelsOf(locale: Locale): MarkdownLabels {
  const P = texts(locale, 'pages', 'products');
  const M = texts(locale, 'pages', 'markdown');
  const C = texts(locale, 'pages', 'content');
  return {
    products: Object.fromEntries(
      REFERENCE_PRODUCT_KEYS.map((k) => [k, P.template(k)]),
    ) as MarkdownLabels['products'],
    markdown: Object.fromEntries(
      Object.keys(en.markdown).map((k) => [k, M.template(k)]),
    ) as MarkdownLabels['markdown'],
    content: { faqTitle: C.template('faqTitle') },
    tag: LOCALE_TAGS[locale],
  };
}

const byLocale = new Map(LOCALES.map((l) => [l, labelsOf(l)]));

/** The Markdown pages' words in `locale`. */
export function markdownLabels(locale: Locale): MarkdownLabels {
  return byLocale.get(locale)!;
}
