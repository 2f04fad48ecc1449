import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';

/**
 * The embedded database's own thread (decision 054): PGlite runs postgres on whatever thread calls
 * it, so it lives here and the server's thread only sends statements (db/worker-dialect.ts).
 * Statements run in PGlite's own order: while a transaction is open, every statement of another
 * connection waits for it to end (PGlite's transaction mutex), as on PGlite in-process.
 */

export interface WorkerOptions {
  /** PGlite's folder (DATA_DIR/pgdata). */
  pgDataDir: string;
  /** Extra postgres settings (`-c name=value` pairs), for benchmarks. */
  startParams?: string[];
}

export type Request =
  | { id: number; op: 'query'; conn: number; sql: string; params: readonly unknown[] }
  | { id: number; op: 'begin' | 'commit' | 'rollback'; conn: number }
  | { id: number; op: 'close' };

/** A database error's message and fields (code, detail, constraint…): an Error's own fields do not survive postMessage. */
export interface ErrorFields {
  message: string;
  fields: Record<string, string | number>;
}

export type Reply =
  | { id: number; ok: true; rows?: unknown[]; affectedRows?: number | undefined }
  | { id: number; ok: false; error: ErrorFields };

/** The first message: the database is open, or why not. */
export type Opened = { opened: true } | { opened: false; error: ErrorFields };

function errorFields(err: unknown): ErrorFields {
  if (!(err instanceof Error)) return { message: String(err), fields: {} };
  const fields: Record<string, string | number> = { name: err.name };
  for (const [key, value] of Object.entries(err))
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  return { message: err.message, fields };
}

interface OpenTransaction {
  tx: Transaction;
  end(commit: boolean): void;
  ended: Promise<void>;
}

async function serve(port: NonNullable<typeof parentPort>, options: WorkerOptions): Promise<void> {
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(options.pgDataDir, {
      // Counts and numerics as JS numbers: our counts stay far below 2^53.
      parsers: { 20: (v: string) => Number(v), 1700: (v: string) => Number(v) },
      ...(options.startParams && { startParams: [...PGlite.defaultStartParams, ...options.startParams] }),
    });
  } catch (err) {
    port.postMessage({ opened: false, error: errorFields(err) } satisfies Opened);
    return;
  }
  const transactions = new Map<number, OpenTransaction>();

  const begin = (conn: number) =>
    new Promise<void>((begun, failed) => {
      let end!: (commit: boolean) => void;
      const decided = new Promise<boolean>((resolve) => (end = resolve));
      const ended = pglite
        .transaction(async (tx) => {
          transactions.set(conn, { tx, end, ended });
          begun();
          if (!(await decided)) await tx.rollback();
        })
        .finally(() => transactions.delete(conn));
      ended.catch(failed);
    });

  const answer = async (request: Request): Promise<Omit<Reply & { ok: true }, 'id' | 'ok'>> => {
    switch (request.op) {
      case 'query': {
        const target = transactions.get(request.conn)?.tx ?? pglite;
        const result = await target.query(request.sql, request.params as unknown[], { rowMode: 'object' });
        return { rows: result.rows, affectedRows: result.affectedRows };
      }
      case 'begin':
        await begin(request.conn);
        return {};
      case 'commit':
      case 'rollback': {
        const open = transactions.get(request.conn);
        if (!open) return {};
        open.end(request.op === 'commit');
        if (request.op === 'commit') await open.ended;
        else await open.ended.catch(() => {});
        return {};
      }
      case 'close':
        await pglite.close();
        return {};
    }
  };

  port.on('message', (request: Request) => {
    answer(request).then(
      (result) => {
        port.postMessage({ id: request.id, ok: true, ...result } satisfies Reply);
        if (request.op === 'close') port.close();
      },
      (err: unknown) =>
        port.postMessage({ id: request.id, ok: false, error: errorFields(err) } satisfies Reply),
    );
  });
  port.postMessage({ opened: true } satisfies Opened);
}

if (parentPort) void serve(parentPort, workerData as WorkerOptions);
