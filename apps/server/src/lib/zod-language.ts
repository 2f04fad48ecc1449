import { z } from 'zod';
import { DEFAULT_LOCALE, type Locale } from '@portico/contracts/locales';

/**
 * zod's own messages in the request's language (decision 058, amended): a schema check that fails
 * with zod's default message ("Too big: expected string to have <=255 characters") is said again
 * by zod's maintained locale of that language, where the answer leaves (plugins/error-language.ts).
 * A message the schema gives itself (the catalogue's) is left to the `errors` files' lookup.
 */
export type ZodIssue = z.core.$ZodIssue;

interface ZodLocale {
  localeError: z.core.$ZodErrorMap;
}

// zod's locales by language code ('en', 'de', ...): a third language of ours finds its own here.
const factories = z.locales as unknown as Record<string, (() => ZodLocale) | undefined>;
const made = new Map<string, ZodLocale | undefined>();

function render(locale: Locale, issue: ZodIssue): string | undefined {
  if (!made.has(locale)) made.set(locale, factories[locale]?.());
  // A finished issue holds what the locale reads of the raw one (code, origin, bounds, values and,
  // when parsed with reportInput, the input); the map only reads it.
  const out = made.get(locale)?.localeError(issue as unknown as Parameters<z.core.$ZodErrorMap>[0]);
  return typeof out === 'string' ? out : (out?.message ?? undefined);
}

/**
 * The issue's message in `locale` when it is zod's own (its English locale says it the same way),
 * else undefined: the schema gave it a message of its own, or the language is the default.
 */
export function zodMessageIn(issue: ZodIssue, locale: Locale): string | undefined {
  if (locale === DEFAULT_LOCALE || render(DEFAULT_LOCALE, issue) !== issue.message) return undefined;
  return render(locale, issue);
}
