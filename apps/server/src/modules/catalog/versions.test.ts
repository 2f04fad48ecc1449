import { describe, expect, test } from 'vitest';
import { splitScopes } from './scopes.ts';
import { aliasFamily, compareVersions, newestVersion, normalizeAlias, sameFamily } from './versions.ts';

describe('product versions', () => {
  test('the family is the alias without its version suffix', () => {
    expect(aliasFamily('/accounts-api-v1')).toBe('accounts-api');
    expect(aliasFamily('accounts-api-v2.1')).toBe('accounts-api');
    expect(aliasFamily('accounts-api')).toBe('accounts-api');
    // 'v' inside a word is not a version.
    expect(aliasFamily('fx-overview')).toBe('fx-overview');
    expect(normalizeAlias(' /a/b/ ')).toBe('a/b');
  });

  test('versions compare numerically', () => {
    expect(['1.9', '1.10', null, '1.0', '2'].sort(compareVersions)).toEqual([
      null,
      '1.0',
      '1.9',
      '1.10',
      '2',
    ]);
  });

  test('the newest non-deprecated version wins; the same title joins products without suffix', () => {
    const p = (alias: string, version: string | null, deprecated = false, created = '2026-01-01') => ({
      alias,
      title: 'Accounts API',
      version,
      deprecated,
      created: new Date(created),
    });
    expect(newestVersion([p('a-v1', '1.0'), p('a-v2', '2.0', true), p('a-v0', '0.9')])?.alias).toBe('a-v1');
    expect(newestVersion([p('a-v1', null), p('a-v1b', null, false, '2026-02-01')])?.alias).toBe('a-v1b');
    expect(newestVersion([p('a-v2', '2.0', true)])).toBeUndefined();
    expect(sameFamily(p('accounts', null), p('accounts-legacy', null))).toBe(true);
    expect(sameFamily(p('accounts-v1', null), { alias: 'payments-v1', title: 'Accounts API' })).toBe(false);
  });

  test('scopes are space separated (commas tolerated)', () => {
    expect(splitScopes(' accounts:read,payments:write  fx:read ')).toEqual([
      'accounts:read',
      'payments:write',
      'fx:read',
    ]);
    expect(splitScopes(null)).toEqual([]);
  });
});
