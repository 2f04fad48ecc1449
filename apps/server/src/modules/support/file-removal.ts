import type { FastifyInstance } from 'fastify';
import { runInBackground } from '../../lib/background-task.ts';
import { supportDb } from './tables.ts';

/** How often every instance removes the stored files of deleted attachments (and once on start). */
export const FILE_REMOVAL_INTERVAL_MS = 60_000;
const BATCH = 100;

/**
 * Removes the stored files of deleted ticket attachments. Whatever deletes `support_ticket_files`
 * rows (a ticket and its cascade, the abandoned-upload clean-up, SQL) queues their storage keys in
 * `support_file_deletions` in its own transaction (migration 0240), so only committed deletions
 * are seen here, after their commit. Each batch claims its keys with FOR UPDATE SKIP LOCKED, so
 * instances running together remove each file once. A file that cannot be removed is logged and
 * left (storage.ts: an unreferenced file is harmless); it never stops the others. Answers how many
 * keys were taken from the queue.
 */
export async function removeDeletedFiles(app: FastifyInstance): Promise<number> {
  const sdb = supportDb(app.db);
  let taken = 0;
  for (;;) {
    const rows = await sdb
      .deleteFrom('support_file_deletions')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('support_file_deletions')
          .select('id')
          .orderBy('id')
          .limit(BATCH)
          .forUpdate()
          .skipLocked(),
      )
      .returning('storage_key')
      .execute();
    for (const { storage_key: key } of rows) {
      await app.storage
        .delete(key)
        .catch((err: unknown) =>
          app.log.warn({ err, key }, 'removing the file of a deleted attachment failed'),
        );
    }
    taken += rows.length;
    if (rows.length < BATCH) return taken;
  }
}

/**
 * Removes the files of deleted attachments when the server is ready and then every
 * FILE_REMOVAL_INTERVAL_MS: the deletions of any instance, or of SQL, within a minute.
 */
export function scheduleFileRemoval(app: FastifyInstance): void {
  runInBackground(app, FILE_REMOVAL_INTERVAL_MS, 'removing the files of deleted attachments', async () => {
    const n = await removeDeletedFiles(app);
    if (n > 0) app.log.info({ removed: n }, 'files of deleted ticket attachments removed');
  });
}
