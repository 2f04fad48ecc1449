/** Matches a uuid (spec B 5: the documentation route id is a uuid, else an alias). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** A path alias as used in our URLs: without the leading slash. */
export function aliasSlug(alias: string | null | undefined): string {
  return (alias ?? '').replace(/^\/+/, '');
}

/**
 * Related product aliases lose their version suffix (spec B 3): '/payments-api-v2' becomes
 * 'payments-api', which the server resolves to the newest version of that product.
 */
export function stripVersionSuffix(alias: string): string {
  return aliasSlug(alias).replace(/-v\d+(?:[._-]\d+)*$/i, '');
}

// Shared with other features (search, blog): they live in lib/text.ts.
export { cutText, cutTitleWords, formatDate, htmlToText } from '../../lib/text';
