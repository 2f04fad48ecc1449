import type { FastifyInstance } from 'fastify';
import { supportDb } from './tables.ts';

/** An upload no ticket named within this long is abandoned (the form was left): removed. */
export const UNATTACHED_UPLOAD_TTL_MS = 24 * 3600_000;
/** How often every instance looks for abandoned uploads (and once when it starts). */
export const UPLOAD_CLEANUP_INTERVAL_MS = 3600_000;
const BATCH = 100;

/**
 * Deletes the ticket attachments uploaded more than a day before `now` that no ticket took, rows
 * first, then their stored files (storage.ts: a crash in between leaves an unreferenced file, never
 * a row without its file). Safe with several instances at once: each batch is one statement that
 * claims its rows with FOR UPDATE SKIP LOCKED, so no two instances delete the same row, and an
 * upload that a create call is attaching at that moment is either attached (and kept: the delete
 * checks `ticket_id is null` again on the locked row) or gone before it (the create call answers
 * 400, as for any unknown upload). Answers how many uploads were removed.
 */
export async function removeUnattachedUploads(app: FastifyInstance, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - UNATTACHED_UPLOAD_TTL_MS);
  const sdb = supportDb(app.db);
  let removed = 0;
  for (;;) {
    const rows = await sdb
      .deleteFrom('support_ticket_files')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('support_ticket_files')
          .select('id')
          .where('ticket_id', 'is', null)
          .where('created', '<', cutoff)
          .orderBy('id')
          .limit(BATCH)
          .forUpdate()
          .skipLocked(),
      )
      .where('ticket_id', 'is', null)
      .returning('storage_key')
      .execute();
    for (const row of rows) {
      await app.storage
        .delete(row.storage_key)
        .catch((err: unknown) =>
          app.log.warn({ err, key: row.storage_key }, 'removing an abandoned upload failed'),
        );
    }
    removed += rows.length;
    if (rows.length < BATCH) return removed;
  }
}

/**
 * Runs the clean-up when the server is ready and then every UPLOAD_CLEANUP_INTERVAL_MS, in the
 * background (a start never waits for it); closing the server waits for a run in progress.
 */
export function scheduleUploadCleanup(app: FastifyInstance): void {
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= removeUnattachedUploads(app)
      .then((n) => {
        if (n > 0) app.log.info({ removed: n }, 'abandoned ticket uploads removed');
      })
      .catch((err: unknown) => app.log.warn({ err }, 'removing abandoned ticket uploads failed'))
      .finally(() => {
        running = undefined;
      });
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    run();
    timer = setInterval(run, UPLOAD_CLEANUP_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
