/**
 * Product versions: products of one family share an alias without the version suffix
 * ('accounts-api-v1', 'accounts-api-v2' → 'accounts-api'), or, without a suffix, the same title.
 */

const VERSION_SUFFIX = /-v\d+(?:[._-]\d+)*$/i;

export function aliasFamily(alias: string): string {
  return normalizeAlias(alias).replace(VERSION_SUFFIX, '');
}

export function hasVersionSuffix(alias: string): boolean {
  return VERSION_SUFFIX.test(normalizeAlias(alias));
}

/** '/accounts-api-v1/' → 'accounts-api-v1' (aliases are stored without slashes). */
export function normalizeAlias(alias: string): string {
  return alias.trim().replace(/^\/+|\/+$/g, '');
}

/** Numeric-aware version order: '1.10' > '1.9' > '1.0' > null. */
export function compareVersions(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' });
}

interface Versioned {
  alias: string;
  title: string;
  version: string | null;
  deprecated: boolean;
  created: Date;
}

/** The same family as `product` (see above). */
export function sameFamily(
  product: Pick<Versioned, 'alias' | 'title'>,
  other: Pick<Versioned, 'alias' | 'title'>,
) {
  if (hasVersionSuffix(product.alias) || hasVersionSuffix(other.alias)) {
    return aliasFamily(product.alias) === aliasFamily(other.alias);
  }
  return product.title === other.title;
}

/** The newest non-deprecated product of a list: highest version, then latest created. */
export function newestVersion<T extends Versioned>(candidates: readonly T[]): T | undefined {
  return candidates
    .filter((c) => !c.deprecated)
    .sort((a, b) => compareVersions(b.version, a.version) || b.created.getTime() - a.created.getTime())[0];
}
