import { DEFAULT_LOCALE, type Locale } from '@portico/contracts/locales';
import { locale } from '../../lib/i18n';

/**
 * Content in the reader's language (issue 30, decision 063): the public reads take the page's
 * language as `langcode`, and each item says in `meta.translation` (or `translation`) which
 * language its text is in.
 */
export interface TranslationMarker {
  langcode: Locale;
  shown: Locale;
  fallback: boolean;
}

/** The query parameter that asks for the page's language (none in the default language). */
export function readerLanguage(): Record<string, string> {
  return locale === DEFAULT_LOCALE ? {} : { langcode: locale };
}

/** The `lang` attribute of an item's text when it is not in the page's language (screen readers). */
export function langOf(marker: TranslationMarker | null | undefined): string | undefined {
  return marker?.fallback ? marker.shown : undefined;
}
