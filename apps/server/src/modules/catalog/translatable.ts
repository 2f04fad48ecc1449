import { PRODUCT_DESCRIPTION_MAX, PRODUCT_TITLE_MAX } from '@portico/contracts/console-products';
import { cleanHtml } from '../../lib/content-html.ts';
import type { TranslatableField, TranslatedFields } from '../../lib/translations.ts';

/**
 * An API product's translatable fields (decision 063): its title and description (HTML, sanitized
 * as the product's own). One list for the console's translation routes and the catalog files'
 * `translations` blocks (the importer and the export).
 */
export const PRODUCT_TRANSLATION_FIELDS: Record<string, TranslatableField> = {
  title: { max: PRODUCT_TITLE_MAX, required: true },
  description: { max: PRODUCT_DESCRIPTION_MAX, clean: cleanHtml },
};

/**
 * What a translation replaces of a product (decision 063): its title and description together;
 * without a title nothing. The one rule of the catalog's JSON:API and the product's Markdown.
 */
export function productTranslation(t: TranslatedFields): { title: string; description: string } | undefined {
  return t.title ? { title: t.title, description: t.description ?? '' } : undefined;
}
