import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely/migration';
import type { Db } from './client.ts';

/**
 * Migrations are code, listed here in order, forward-only. Callers run them under the start-up lock
 * (startup-lock.ts), so several instances starting together against PostgreSQL run each migration
 * once (Kysely's own lock table is created with `create table if not exists`, which races).
 */
const migrations: Record<string, () => Promise<Migration>> = {
  '0001-foundation': () => import('./migrations/0001-foundation.ts'),
  '0020-organizations': () => import('./migrations/0020-organizations.ts'),
  '0030-oauth-clients': () => import('./migrations/0030-oauth-clients.ts'),
  '0031-api-calls': () => import('./migrations/0031-api-calls.ts'),
  '0040-catalog': () => import('./migrations/0040-catalog.ts'),
  '0041-catalog-json': () => import('./migrations/0041-catalog-json.ts'),
  '0042-api-operations': () => import('./migrations/0042-api-operations.ts'),
  '0050-applications': () => import('./migrations/0050-applications.ts'),
  '0060-pages': () => import('./migrations/0060-pages.ts'),
  '0070-content-imports': () => import('./migrations/0070-content-imports.ts'),
  '0080-account-security': () => import('./migrations/0080-account-security.ts'),
  '0081-login-state-browser': () => import('./migrations/0081-login-state-browser.ts'),
  '0100-search': () => import('./migrations/0100-search.ts'),
  '0101-search-sources': () => import('./migrations/0101-search-sources.ts'),
  '0110-bundled-documents': () => import('./migrations/0110-bundled-documents.ts'),
  '0140-tryout-history': () => import('./migrations/0140-tryout-history.ts'),
  '0150-support': () => import('./migrations/0150-support.ts'),
  '0151-support-files': () => import('./migrations/0151-support-files.ts'),
  '0160-forum': () => import('./migrations/0160-forum.ts'),
  '0170-content': () => import('./migrations/0170-content.ts'),
  '0120-data-versions': () => import('./migrations/0120-data-versions.ts'),
  '0180-quickstart-stories': () => import('./migrations/0180-quickstart-stories.ts'),
  '0200-identity-data-versions': () => import('./migrations/0200-identity-data-versions.ts'),
  '0210-search-heading': () => import('./migrations/0210-search-heading.ts'),
  '0220-document-texts': () => import('./migrations/0220-document-texts.ts'),
  '0240-support-file-deletions': () => import('./migrations/0240-support-file-deletions.ts'),
  '0250-operation-index-rows': () => import('./migrations/0250-operation-index-rows.ts'),
  '0262-stored-file-deletions': () => import('./migrations/0262-stored-file-deletions.ts'),
  '0270-provider-console': () => import('./migrations/0270-provider-console.ts'),
  '0271-console-users': () => import('./migrations/0271-console-users.ts'),
  '0273-console-dashboard': () => import('./migrations/0273-console-dashboard.ts'),
  '0274-article-editing': () => import('./migrations/0274-article-editing.ts'),
  '0275-api-drafts': () => import('./migrations/0275-api-drafts.ts'),
  '0276-faq-editing': () => import('./migrations/0276-faq-editing.ts'),
  '0277-page-editing': () => import('./migrations/0277-page-editing.ts'),
  '0278-product-editing': () => import('./migrations/0278-product-editing.ts'),
  '0279-api-calls-per-api-day': () => import('./migrations/0279-api-calls-per-api-day.ts'),
  '0280-site-content-editing': () => import('./migrations/0280-site-content-editing.ts'),
  '0281-content-revisions': () => import('./migrations/0281-content-revisions.ts'),
  '0282-product-console': () => import('./migrations/0282-product-console.ts'),
  '0290-console-images': () => import('./migrations/0290-console-images.ts'),
  '0291-site-content-drafts': () => import('./migrations/0291-site-content-drafts.ts'),
  '0294-plans-version': () => import('./migrations/0294-plans-version.ts'),
  '0296-category-versions': () => import('./migrations/0296-category-versions.ts'),
  '0300-client-secrets': () => import('./migrations/0300-client-secrets.ts'),
  '0302-client-auth-methods': () => import('./migrations/0302-client-auth-methods.ts'),
  '0304-organization-certificates': () => import('./migrations/0304-organization-certificates.ts'),
  '0305-product-psd2-roles': () => import('./migrations/0305-product-psd2-roles.ts'),
  '0306-dpop-bound-tokens': () => import('./migrations/0306-dpop-bound-tokens.ts'),
  '0307-dpop-proof-jtis': () => import('./migrations/0307-dpop-proof-jtis.ts'),
  '0308-dynamic-registration': () => import('./migrations/0308-dynamic-registration.ts'),
  '0309-preferred-language': () => import('./migrations/0309-preferred-language.ts'),
  '0310-content-translations': () => import('./migrations/0310-content-translations.ts'),
  '0315-search-languages': () => import('./migrations/0315-search-languages.ts'),
  '0316-translation-sources': () => import('./migrations/0316-translation-sources.ts'),
  '0317-api-calls-occurred-at-dropped': () => import('./migrations/0317-api-calls-occurred-at-dropped.ts'),
  '0318-api-calls-client-time-dropped': () => import('./migrations/0318-api-calls-client-time-dropped.ts'),
};

/** A migration failed: the database stays at the last migration that succeeded. */
export class MigrationError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'MigrationError';
  }
}

/**
 * Each migration's module is loaded when Kysely runs it, not at every start: a migrated database
 * needs only their names, and the old ones' code (0110's frozen OpenAPI processing with
 * swagger2openapi and its parsers, about 6 MB of the main thread's heap) stays unloaded.
 */
const provider: MigrationProvider = {
  getMigrations: () =>
    Promise.resolve(
      Object.fromEntries(
        Object.entries(migrations).map(([name, load]): [string, Migration] => [
          name,
          { up: async (db) => (await load()).up(db) },
        ]),
      ),
    ),
};

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
