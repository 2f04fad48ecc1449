import { cleanHtml } from '../../lib/content-html.ts';
import type { TranslatableField, TranslatedFields } from '../../lib/translations.ts';
import { renderMarkdown } from '../pages/service.ts';

/**
 * The translatable fields of the content module's kinds (decision 063): one list for the console's
 * translation routes and the content files' translations (the importer and the export).
 */

/** An article's: its texts; the body rendered and sanitized as a save's. */
export const ARTICLE_TRANSLATION_FIELDS: Record<string, TranslatableField> = {
  title: { max: 255, required: true },
  description: { max: 2000 },
  body: { max: 500_000, html: (md) => cleanHtml(renderMarkdown(md).trim()) },
};

/** A question's: the answer rendered and sanitized as the save does. */
export const FAQ_TRANSLATION_FIELDS: Record<string, TranslatableField> = {
  question: { max: 500, required: true },
  answer: { max: 100_000, required: true, html: (md) => cleanHtml(renderMarkdown(md)) },
};

/** A news (blog) or FAQ category's: its name, as the console's save checks it. */
export const CATEGORY_TRANSLATION_FIELDS: Record<string, TranslatableField> = {
  name: { max: 255, required: true },
};

/**
 * What a translation replaces of an article (decision 063): its title, summary and body together;
 * without a title (the console requires one) nothing. The one rule of the blog's JSON:API and the
 * article's Markdown.
 */
export function articleTranslation(
  t: TranslatedFields,
): { title: string; description: string; bodyHtml: string } | undefined {
  return t.title
    ? { title: t.title, description: t.description ?? '', bodyHtml: t.bodyHtml ?? '' }
    : undefined;
}

/**
 * What a translation replaces of a question (decision 063): the question and the answer, each
 * where the translation has it. The one rule of the FAQ's JSON:API and the FAQ page's Markdown.
 */
export function faqTranslation(t: TranslatedFields): { question?: string; answerHtml?: string } {
  return {
    ...(t.question ? { question: t.question } : {}),
    ...(t.answerHtml ? { answerHtml: t.answerHtml } : {}),
  };
}

/**
 * What a translation replaces of a news or FAQ category (decision 063): its name; without one (the
 * console requires it) nothing. The one rule of the categories' JSON:API, the articles' and the
 * questions' included categories, and the Markdown of the FAQ page and an article.
 */
export function categoryTranslation(t: TranslatedFields | undefined): { name: string } | undefined {
  return t?.name ? { name: t.name } : undefined;
}
