import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely/migration';
import type { Db } from './client.ts';
import * as m0001 from './migrations/0001-foundation.ts';
import * as m0020 from './migrations/0020-organizations.ts';
import * as m0030 from './migrations/0030-oauth-clients.ts';
import * as m0031 from './migrations/0031-api-calls.ts';
import * as m0040 from './migrations/0040-catalog.ts';
import * as m0041 from './migrations/0041-catalog-json.ts';
import * as m0042 from './migrations/0042-api-operations.ts';
import * as m0050 from './migrations/0050-applications.ts';
import * as m0060 from './migrations/0060-pages.ts';
import * as m0070 from './migrations/0070-content-imports.ts';
import * as m0080 from './migrations/0080-account-security.ts';
import * as m0081 from './migrations/0081-login-state-browser.ts';
import * as m0100 from './migrations/0100-search.ts';
import * as m0101 from './migrations/0101-search-sources.ts';
import * as m0110 from './migrations/0110-bundled-documents.ts';
import * as m0140 from './migrations/0140-tryout-history.ts';
import * as m0150 from './migrations/0150-support.ts';
import * as m0151 from './migrations/0151-support-files.ts';
import * as m0160 from './migrations/0160-forum.ts';
import * as m0170 from './migrations/0170-content.ts';
import * as m0120 from './migrations/0120-data-versions.ts';
import * as m0180 from './migrations/0180-quickstart-stories.ts';
import * as m0200 from './migrations/0200-identity-data-versions.ts';
import * as m0210 from './migrations/0210-search-heading.ts';
import * as m0220 from './migrations/0220-document-texts.ts';
import * as m0240 from './migrations/0240-support-file-deletions.ts';
import * as m0250 from './migrations/0250-operation-index-rows.ts';
import * as m0262 from './migrations/0262-stored-file-deletions.ts';
import * as m0270 from './migrations/0270-provider-console.ts';
import * as m0271 from './migrations/0271-console-users.ts';
import * as m0273 from './migrations/0273-console-dashboard.ts';
import * as m0274 from './migrations/0274-article-editing.ts';
import * as m0275 from './migrations/0275-api-drafts.ts';
import * as m0276 from './migrations/0276-faq-editing.ts';
import * as m0277 from './migrations/0277-page-editing.ts';
import * as m0278 from './migrations/0278-product-editing.ts';
import * as m0279 from './migrations/0279-api-calls-per-api-day.ts';
import * as m0280 from './migrations/0280-site-content-editing.ts';
import * as m0281 from './migrations/0281-content-revisions.ts';
import * as m0282 from './migrations/0282-product-console.ts';
import * as m0290 from './migrations/0290-console-images.ts';
import * as m0291 from './migrations/0291-site-content-drafts.ts';
import * as m0294 from './migrations/0294-plans-version.ts';
import * as m0296 from './migrations/0296-category-versions.ts';
import * as m0300 from './migrations/0300-client-secrets.ts';
import * as m0302 from './migrations/0302-client-auth-methods.ts';
import * as m0304 from './migrations/0304-organization-certificates.ts';
import * as m0305 from './migrations/0305-product-psd2-roles.ts';
import * as m0306 from './migrations/0306-dpop-bound-tokens.ts';
import * as m0307 from './migrations/0307-dpop-proof-jtis.ts';
import * as m0308 from './migrations/0308-dynamic-registration.ts';
import * as m0309 from './migrations/0309-preferred-language.ts';
import * as m0310 from './migrations/0310-content-translations.ts';
import * as m0315 from './migrations/0315-search-languages.ts';
import * as m0316 from './migrations/0316-translation-sources.ts';
import * as m0317 from './migrations/0317-api-calls-occurred-at-dropped.ts';

/**
 * Migrations are code, listed here in order, forward-only. Callers run them under the start-up lock
 * (startup-lock.ts), so several instances starting together against PostgreSQL run each migration
 * once (Kysely's own lock table is created with `create table if not exists`, which races).
 */
const migrations: Record<string, Migration> = {
  '0001-foundation': m0001,
  '0020-organizations': m0020,
  '0030-oauth-clients': m0030,
  '0031-api-calls': m0031,
  '0040-catalog': m0040,
  '0041-catalog-json': m0041,
  '0042-api-operations': m0042,
  '0050-applications': m0050,
  '0060-pages': m0060,
  '0070-content-imports': m0070,
  '0080-account-security': m0080,
  '0081-login-state-browser': m0081,
  '0100-search': m0100,
  '0101-search-sources': m0101,
  '0110-bundled-documents': m0110,
  '0140-tryout-history': m0140,
  '0150-support': m0150,
  '0151-support-files': m0151,
  '0160-forum': m0160,
  '0170-content': m0170,
  '0120-data-versions': m0120,
  '0180-quickstart-stories': m0180,
  '0200-identity-data-versions': m0200,
  '0210-search-heading': m0210,
  '0220-document-texts': m0220,
  '0240-support-file-deletions': m0240,
  '0250-operation-index-rows': m0250,
  '0262-stored-file-deletions': m0262,
  '0270-provider-console': m0270,
  '0271-console-users': m0271,
  '0273-console-dashboard': m0273,
  '0274-article-editing': m0274,
  '0275-api-drafts': m0275,
  '0276-faq-editing': m0276,
  '0277-page-editing': m0277,
  '0278-product-editing': m0278,
  '0279-api-calls-per-api-day': m0279,
  '0280-site-content-editing': m0280,
  '0281-content-revisions': m0281,
  '0282-product-console': m0282,
  '0290-console-images': m0290,
  '0291-site-content-drafts': m0291,
  '0294-plans-version': m0294,
  '0296-category-versions': m0296,
  '0300-client-secrets': m0300,
  '0302-client-auth-methods': m0302,
  '0304-organization-certificates': m0304,
  '0305-product-psd2-roles': m0305,
  '0306-dpop-bound-tokens': m0306,
  '0307-dpop-proof-jtis': m0307,
  '0308-dynamic-registration': m0308,
  '0309-preferred-language': m0309,
  '0310-content-translations': m0310,
  '0315-search-languages': m0315,
  '0316-translation-sources': m0316,
  '0317-api-calls-occurred-at-dropped': m0317,
};

/** A migration failed: the database stays at the last migration that succeeded. */
export class MigrationError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'MigrationError';
  }
}

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

export async function migrateToLatest(db: Db): Promise<string[]> {
  return migrate(db, (migrator) => migrator.migrateToLatest());
}

/**
 * Migrates up to and including the migration named: a database as an earlier release left it,
 * for the tests of a migration that carries data over.
 */
export async function migrateTo(db: Db, name: string): Promise<string[]> {
  return migrate(db, (migrator) => migrator.migrateTo(name));
}

async function migrate(db: Db, run: (migrator: Migrator) => Promise<MigrationResultSet>): Promise<string[]> {
  // Each issue owns a range of numbers (0020 organizations, 0030 OAuth clients, ...), so a lower
  // number may land after higher ones were applied: independent migrations run in any order.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await run(migrator);
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new MigrationError(`Database migration failed${name}: ${String(error)}`, { cause: error });
  }
  return (results ?? []).map((r) => r.migrationName);
}
