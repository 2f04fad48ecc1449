import { DEFAULT_LOCALE, type Locale } from '@portico/contracts/locales';
import { flatTexts, texts } from './i18n.ts';
import { zodMessageIn, type ZodIssue } from './zod-language.ts';

/**
 * Translates an API error message, written in English where it is thrown, into the request's
 * language (decision 058). The `errors` namespace lists, under the catalogue's own keys, the
 * English texts the API sends to users; a message equal to one of them, or one of them with its
 * `{{placeholders}}` filled, becomes the same key's text in the language with the same values.
 * Anything else (a message not yet in the files, an OpenAPI document's own words) stays as
 * thrown. English is never touched, so the default answers stay byte for byte what they were.
 */
interface Pattern {
  key: string;
  regex: RegExp;
  names: string[];
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(): { exact: Map<string, string>; patterns: Pattern[] } {
  const exact = new Map<string, string>();
  const patterns: Pattern[] = [];
  for (const [key, text] of flatTexts(DEFAULT_LOCALE, 'errors')) {
    const names = [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]!);
    if (names.length === 0) {
      if (!exact.has(text)) exact.set(text, key);
      continue;
    }
    const source = text
      .split(/\{\{\w+\}\}/)
      .map(escapeRegex)
      .join('([\\s\\S]*?)');
    patterns.push({ key, regex: new RegExp(`^${source}$`), names });
  }
  // The most specific (longest) templates first: 'A {{x}} B' before '{{x}}'.
  patterns.sort((a, b) => b.regex.source.length - a.regex.source.length);
  return { exact, patterns };
}

let compiled: ReturnType<typeof compile> | undefined;

/** The key of the `errors` namespace an English message comes from, with its values. */
export function errorKeyOf(message: string): { key: string; values: Record<string, string> } | undefined {
  compiled ??= compile();
  const key = compiled.exact.get(message);
  if (key) return { key, values: {} };
  for (const { key: k, regex, names } of compiled.patterns) {
    const match = regex.exec(message);
    if (match) return { key: k, values: Object.fromEntries(names.map((n, i) => [n, match[i + 1]!])) };
  }
  return undefined;
}

/** `message` in `locale`, or as it is when it is not one of the API's known texts. */
export function translateError(message: string, locale: Locale): string {
  if (locale === DEFAULT_LOCALE) return message;
  const found = errorKeyOf(message);
  return found ? texts(locale, 'errors')(found.key, found.values) : message;
}

interface ErrorDocumentLike {
  errors?: { title?: unknown; detail?: unknown }[];
}

/**
 * A JSON:API error document (as sent) with every title and detail in `locale`, or undefined. Each
 * text goes through the `errors` files; then each of `issues`' messages in it (a failed schema
 * check's, alone or inside a text such as 'title: …' or a list of problems) is said again: zod's
 * own by zod's locale of the language, a message the schema gives itself by the `errors` files.
 */
export function translateErrorDocument(
  body: string,
  locale: Locale,
  issues: readonly ZodIssue[] = [],
): string | undefined {
  let doc: ErrorDocumentLike;
  try {
    doc = JSON.parse(body) as ErrorDocumentLike;
  } catch {
    return undefined;
  }
  if (!doc || !Array.isArray(doc.errors)) return undefined;
  let changed = false;
  for (const error of doc.errors) {
    for (const field of ['title', 'detail'] as const) {
      const value = error?.[field];
      if (typeof value !== 'string') continue;
      let translated = translateError(value, locale);
      for (const issue of issues) {
        if (!translated.includes(issue.message)) continue;
        // zod's own message by zod's locale; a schema's own (the catalogue's) by the files.
        const said = zodMessageIn(issue, locale) ?? translateError(issue.message, locale);
        if (said !== issue.message) translated = translated.split(issue.message).join(said);
      }
      if (translated !== value) {
        error[field] = translated;
        changed = true;
      }
    }
  }
  return changed ? JSON.stringify(doc) : undefined;
}
