/**
 * Text a database column can hold: no NUL byte (PostgreSQL's text types reject it) and no lone
 * UTF-16 surrogate (not Unicode; it would be stored as U+FFFD and no longer match what was sent).
 * plugins/text-input.ts refuses anything else where requests come in.
 */

/** True for a string PostgreSQL can store and that is well-formed Unicode. */
/** A NUL, or a surrogate without its partner (String#isWellFormed is ES2024, past our lib). */
const NOT_STORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const NOT_STORABLE_ALL = new RegExp(NOT_STORABLE.source, 'g');

/** The text with each character a column cannot hold shown as U+FFFD, e.g. to name a field. */
export function printableText(value: string): string {
  return value.replace(NOT_STORABLE_ALL, '\ufffd');
}

export function isStorableText(value: string): boolean {
  return !NOT_STORABLE.test(value);
}

/** The path (JSON-pointer segments) of the first string in `value` that is not storable text. */
export function findInvalidText(value: unknown, at: string[] = [], depth = 0): string[] | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : at;
  // Parsed bodies are shallow; the bound only keeps a hostile document from costing a deep walk.
  if (value === null || typeof value !== 'object' || depth > 64) return undefined;
  // Plain data only: a raw body (a Buffer) is bytes, not text.
  if (ArrayBuffer.isView(value)) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findInvalidText(value[i], [...at, String(i)], depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    if (!isStorableText(key)) return [...at, key];
    const found = findInvalidText(item, [...at, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}
