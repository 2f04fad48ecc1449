// The documentation route's id is a uuid, else an alias (spec B 5); the server's HTML tells them
// apart the same way, so the test lives with the URLs both sides build.
export { isUuid } from '@portico/contracts/documentation-data';

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
