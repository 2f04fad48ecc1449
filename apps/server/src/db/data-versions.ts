import { sql, type CompiledQuery, type Kysely } from 'kysely';
import { localWriteCounter } from './client.ts';
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
  /**
   * Only updates of these columns count (inserts, deletes and truncates always do): for a table
   * with a column written on reads, like the last-seen time of a session, which must not
   * invalidate anything.
   */
  options: { updateOf?: readonly string[] } = {},
): Promise<void> {
  if (!/^[a-z][a-z0-9_-]*$/.test(domain)) throw new Error(`invalid data domain ${domain}`);
  await sql`insert into data_versions (domain, version) values (${domain}, 1) on conflict (domain) do nothing`.execute(
    db,
  );
  for (const table of tables) {
    const trigger = `${table}_data_version`;
    await sql`drop trigger if exists ${sql.id(trigger)} on ${sql.table(table)}`.execute(db);
    if (!options.updateOf) {
      await sql`create trigger ${sql.id(trigger)} after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function portico_bump_data_version(${sql.lit(domain)})`.execute(db);
      continue;
    }
    const columns = sql.join(options.updateOf.map((c) => sql.id(c)));
    await sql`create trigger ${sql.id(trigger)} after insert or delete or truncate on ${sql.table(table)}
      for each statement execute function portico_bump_data_version(${sql.lit(domain)})`.execute(db);
    await sql`drop trigger if exists ${sql.id(`${trigger}_update`)} on ${sql.table(table)}`.execute(db);
    await sql`create trigger ${sql.id(`${trigger}_update`)} after update of ${columns} on ${sql.table(table)}
      for each statement execute function portico_bump_data_version(${sql.lit(domain)})`.execute(db);
  }
}

const compiledReads = new WeakMap<Kysely<Database>, CompiledQuery<{ domain: string; version: string }>>();

/** The current counter of every domain. */
export async function readDataVersions(db: Kysely<Database>): Promise<Map<string, string>> {
  // Compiled once per database: on PostgreSQL the requests read the counters all the time.
  let query = compiledReads.get(db);
  if (!query) {
    query = db.selectFrom('data_versions').select(['domain', 'version']).compile();
    compiledReads.set(db, query);
  }
  const { rows } = await db.executeQuery(query);
  return new Map(rows.map((r) => [r.domain, String(r.version)]));
}

/**
 * Shares one read of the counters between the requests waiting for it: a request never uses a
 * read that started before it arrived (it could miss a change committed in between), only one
 * that starts after.
 */
export class CoalescedReader<T> {
  private inFlight: Promise<T> | null = null;
  private next: Promise<T> | null = null;
  reads = 0;
  private readonly load: () => Promise<T>;
  constructor(load: () => Promise<T>) {
    this.load = load;
  }

  read(): Promise<T> {
    if (!this.inFlight) return this.start();
    this.next ??= this.inFlight
      .catch(() => undefined)
      .then(() => {
        this.next = null;
        return this.start();
      });
    return this.next;
  }

  private start(): Promise<T> {
    this.reads++;
    const p = this.load().finally(() => {
      if (this.inFlight === p) this.inFlight = null;
    });
    this.inFlight = p;
    return p;
  }
}

/** The counters as the caches of one app read them (plugins/db.ts decorates `app.dataVersions`). */
export interface DataVersionReader {
  /** The counters, from a read that started after this call (or, on PGlite, still valid). */
  read(): Promise<Map<string, string>>;
  /**
   * The same read for every cache a request goes through (the session, then the answer): taken
   * once, when the request first asks, so one request costs at most one read.
   */
  forRequest(request: object): Promise<Map<string, string>>;
  /** How many reads reached the database (tests). */
  reads(): number;
}

export function dataVersionReader(db: Kysely<Database>): DataVersionReader {
  const coalesced = new CoalescedReader(() => readDataVersions(db));
  // On the embedded database this process is the only writer: a read of the counters holds until
  // the next statement that may write (db/client.ts localWriteCounter).
  const writes = localWriteCounter(db);
  let held: { value: Map<string, string>; started: number } | undefined;
  const read = async (): Promise<Map<string, string>> => {
    if (!writes) return coalesced.read();
    if (held && held.started === writes.started && writes.done === writes.started) return held.value;
    const started = writes.started;
    const quiet = writes.done === started;
    const value = await coalesced.read();
    held = quiet && writes.started === started ? { value, started } : undefined;
    return value;
  };
  const perRequest = new WeakMap<object, Promise<Map<string, string>>>();
  return {
    read,
    reads: () => coalesced.reads,
    forRequest(request) {
      let p = perRequest.get(request);
      if (!p) {
        p = read();
        perRequest.set(request, p);
      }
      return p;
    },
  };
}
