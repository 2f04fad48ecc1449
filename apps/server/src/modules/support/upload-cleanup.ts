import type { FastifyInstance } from 'fastify';
import { runInBackground } from '../../lib/background-task.ts';
import { removeDeletedFiles } from '../../lib/file-removal.ts';
import { supportDb } from './tables.ts';

/** An upload no ticket named within this long is abandoned (the form was left): removed. */
export const UNATTACHED_UPLOAD_TTL_MS = 24 * 3600_000;
/** How often every instance looks for abandoned uploads (and once when it starts). */
export const UPLOAD_CLEANUP_INTERVAL_MS = 3600_000;
const BATCH = 100;

/**
 * Deletes the ticket attachments uploaded more than a day before `now` that no ticket took: their
 * rows, then their stored files (lib/file-removal.ts, after the deletion commits: a crash in between
 * leaves an unreferenced file, never a row without its file). Safe with several instances at once:
 * each batch is one statement that claims its rows with FOR UPDATE SKIP LOCKED, so no two instances
 * delete the same row, and an upload that a create call is attaching at that moment is either
 * attached (and kept: the delete checks `ticket_id is null` again on the locked row) or gone before
 * it (the create call answers 400, as for any unknown upload). Answers how many uploads were removed.
 */
export async function removeUnattachedUploads(app: FastifyInstance, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - UNATTACHED_UPLOAD_TTL_MS);
  const sdb = supportDb(app.db);
  let removed = 0;
  for (;;) {
    const { numDeletedRows } = await sdb
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
      .executeTakeFirst();
    removed += Number(numDeletedRows);
    if (numDeletedRows < BATCH) break;
  }
  // The trigger of migration 0240 queued their files.
  if (removed > 0) await removeDeletedFiles(app);
  return removed;
}

/** Runs the clean-up when the server is ready and then every UPLOAD_CLEANUP_INTERVAL_MS. */
export function scheduleUploadCleanup(app: FastifyInstance): void {
  runInBackground(app, UPLOAD_CLEANUP_INTERVAL_MS, 'removing abandoned ticket uploads', async () => {
    const n = await removeUnattachedUploads(app);
    if (n > 0) app.log.info({ removed: n }, 'abandoned ticket uploads removed');
  });
}
