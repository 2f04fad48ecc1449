import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Change counters of public content (decision 018): one row per domain in `data_versions`, bumped
 * by a statement trigger in the same transaction as any insert, update, delete or truncate of a
 * table of that domain. Every instance on the same database sees a committed change in the next
 * read of the counters, so answers cached by one process are never the source of truth.
 *
 * A migration that adds a table whose rows reach a cached public answer calls
 * `trackDataChanges(db, domain, [table])` (keep this function's effect stable: migrations that ran
 * with it are never run again).
 */
export async function trackDataChanges(
  db: Kysely<unknown>,
  domain: string,
  tables: readonly string[],
): Promise<void> {
  if (!/^[a-z][a-z0-9_-]*$/.test(domain)) throw new Error(`invalid data domain ${domain}`);
  await sql`insert into data_versions (domain, version) values (${domain}, 1) on conflict (domain) do nothing`.execute(
    db,
  );
  for (const table of tables) {
    const trigger = `${table}_data_version`;
    await sql`drop trigger if exists ${sql.id(trigger)} on ${sql.table(table)}`.execute(db);
    await sql`create trigger ${sql.id(trigger)} after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function portico_bump_data_version(${sql.lit(domain)})`.execute(db);
  }
}

/** The current counter of every domain. */
export async function readDataVersions(db: Kysely<Database>): Promise<Map<string, string>> {
  const rows = await db.selectFrom('data_versions').select(['domain', 'version']).execute();
  return new Map(rows.map((r) => [r.domain, String(r.version)]));
}
