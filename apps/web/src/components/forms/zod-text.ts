import type { z } from 'zod';
import { de, en } from 'zod/locales';
import { DEFAULT_LOCALE, type Locale } from '@portico/contracts/locales';
import { locale, translateText } from '../../lib/i18n';

/**
 * A failed check's message as a form shows it, in the page's language: the catalogue's message a
 * shared schema gives (the message files), else zod's own in zod's locale of the language (as the
 * server says it, apps/server/src/lib/zod-language.ts). A third language adds its zod locale here.
 */
const ZOD_LOCALES: Record<Locale, () => { localeError: z.core.$ZodErrorMap }> = { en, de };

type RawIssue = Parameters<z.core.$ZodErrorMap>[0];
const said = (lng: Locale, issue: z.core.$ZodIssue): string | undefined => {
  // A finished issue holds what the locale reads of the raw one (code, origin, bounds, values).
  const out = ZOD_LOCALES[lng]().localeError(issue as unknown as RawIssue);
  return typeof out === 'string' ? out : (out?.message ?? undefined);
};

export function issueText(issue: z.core.$ZodIssue): string {
  const own = translateText(issue.message);
  if (locale === DEFAULT_LOCALE || own !== issue.message) return own;
  // zod's own message (its English locale says it the same way): said by its locale of ours.
  return said(DEFAULT_LOCALE, issue) === issue.message ? (said(locale, issue) ?? own) : own;
}
