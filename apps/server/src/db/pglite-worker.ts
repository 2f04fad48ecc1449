import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { lowerThisThreadsPriority } from '../lib/thread-priority.ts';

/**
 * The embedded database's own thread (decisions 054 and 060): PGlite runs postgres on whatever
 * thread calls it, so it lives here, and the server's thread sends statements (db/worker-pool.ts),
 * many in one message, and gets the answers the same way. From a connection's BEGIN to its end, the
 * other connections' statements wait, as on PGlite in-process (its transaction mutex).
 */

export interface WorkerOptions {
  /** PGlite's folder (DATA_DIR/pgdata). */
  pgDataDir: string;
  /** Extra postgres settings (`-c name=value` pairs), for benchmarks. */
  startParams?: string[];
}

/** A statement of a connection (a number of the server's choosing). */
export type Statement = { conn: number; sql: string; params: readonly unknown[] };

/** A statement, or without one: close the database. */
export type Request = { id: number } & (Statement | { conn?: never });

/** `pg`'s result shape, which Kysely's PostgresDialect reads (PGlite's results have it too). */
export type Result = { rows: unknown[]; rowCount?: number; command?: string };

/** A database error's message and fields (code, detail, constraint…): an Error's own fields do not survive postMessage. */
export type ErrorFields = { message: string; fields: Record<string, string | number> };

export type Reply = { id: number; result: Result } | { id: number; error: ErrorFields };

/** The first message: the database is open, or why not. */
export type Opened = { opened: true } | { opened: false; error: ErrorFields };

function errorFields(err: unknown): ErrorFields {
  if (!(err instanceof Error)) return { message: String(err), fields: {} };
  const fields: Record<string, string | number> = { name: err.name };
  for (const [key, value] of Object.entries(err))
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  return { message: err.message, fields };
}

/**
 * postgres's shared buffers live in PGlite's WebAssembly memory, which grows as they fill and is
 * never given back: at postgres's default of 128 MB the memory is 188 MB from the start and the
 * portal's resident size grows by the buffers an import touches. 16 MB keeps the memory at PGlite's
 * initial 128 MB; a page not in them is read from DATA_DIR through the operating system's cache
 * (decision 066).
 */
const MEMORY_SETTINGS = ['-c', 'shared_buffers=16MB'];

const BEGIN = /^\s*(?:begin|start transaction)\b/i;
const END = /^\s*(?:commit|rollback)\s*$/i;

async function serve(port: NonNullable<typeof parentPort>, options: WorkerOptions): Promise<void> {
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(options.pgDataDir, {
      // Counts and numerics as JS numbers: our counts stay far below 2^53.
      parsers: { 20: (v: string) => Number(v), 1700: (v: string) => Number(v) },
      startParams: [...PGlite.defaultStartParams, ...MEMORY_SETTINGS, ...(options.startParams ?? [])],
    });
  } catch (err) {
    return port.postMessage({ opened: false, error: errorFields(err) } satisfies Opened);
  }
  // PGlite has one session: from a connection's BEGIN to its COMMIT or ROLLBACK, the other
  // connections' statements wait for `free`.
  let owner: number | undefined;
  let free = Promise.resolve();
  let ended = () => {};

  const run = async (conn: number, sql: string, params: readonly unknown[]): Promise<Result> => {
    while (owner !== undefined && owner !== conn) await free;
    const begins = owner === undefined && BEGIN.test(sql);
    if (begins) {
      owner = conn;
      free = new Promise((resolve) => (ended = resolve));
    }
    let ends = owner === conn && END.test(sql);
    try {
      const { rows, rowCount, command } = (await pglite.query(sql, [...params])) as Result;
      return { rows, rowCount, command };
    } catch (err) {
      ends ||= begins;
      throw err;
    } finally {
      if (ends) {
        owner = undefined;
        ended();
      }
    }
  };

  // The answers leave together once the statements that came with them have run.
  let outbox: Reply[] = [];
  const flush = () => {
    if (outbox.length) port.postMessage(outbox);
    outbox = [];
  };
  const reply = (message: Reply) => {
    if (outbox.push(message) === 1) setImmediate(flush);
  };

  port.on('message', (requests: Request[]) => {
    for (const request of requests) {
      if (request.conn === undefined)
        void pglite.close().finally(() => {
          reply({ id: request.id, result: { rows: [] } });
          flush();
          port.close();
        });
      else
        run(request.conn, request.sql, request.params).then(
          (result) => reply({ id: request.id, result }),
          (err: unknown) => reply({ id: request.id, error: errorFields(err) }),
        );
    }
  });
  port.postMessage({ opened: true } satisfies Opened);
}

if (parentPort) {
  // Below the thread that answers requests when both want a core (decision 066).
  lowerThisThreadsPriority();
  void serve(parentPort, workerData as WorkerOptions);
}
