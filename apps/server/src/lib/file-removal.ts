import type { FastifyInstance } from 'fastify';
import { runInBackground } from './background-task.ts';

/** How often every instance removes the stored files of deleted rows (and once on start). */
export const FILE_REMOVAL_INTERVAL_MS = 60_000;
const BATCH = 100;

/**
 * Removes the stored files of deleted rows (storage.ts: rows and files change together).
 * Whatever deletes a row holding a stored file (`files`: organization images and documents;
 * `support_ticket_files`: ticket attachments), by a route, a cascade (an organization, a ticket, a
 * user) or SQL, queues its storage key in `stored_file_deletions` in its own transaction
 * (migrations 0240, 0262), so only committed deletions are seen here, after their commit. Each
 * batch claims its keys with FOR UPDATE SKIP LOCKED, so instances running together remove each
 * file once. A file that cannot be removed (the storage unreachable) is logged and queued again for
 * the next run; it never stops the others. Answers how many keys were taken from the queue.
 *
 * Routes that delete such rows call it once their transaction has committed, so the files are gone
 * when they answer; every instance also runs it on start and every minute (scheduleFileRemoval),
 * for the deletions of SQL, of another instance that stopped in between, or of a failed attempt.
 */
export async function removeDeletedFiles(app: FastifyInstance): Promise<number> {
  let taken = 0;
  const failed: string[] = [];
  for (;;) {
    const rows = await app.db
      .deleteFrom('stored_file_deletions')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('stored_file_deletions')
          .select('id')
          .orderBy('id')
          .limit(BATCH)
          .forUpdate()
          .skipLocked(),
      )
      .returning('storage_key')
      .execute();
    for (const { storage_key: key } of rows) {
      try {
        await app.storage.delete(key);
      } catch (err) {
        app.log.warn({ err, key }, 'removing the file of a deleted row failed');
        failed.push(key);
      }
    }
    taken += rows.length;
    if (rows.length < BATCH) break;
  }
  // Queued again once this run is over (not in its loop): the next run tries them again.
  if (failed.length) {
    await app.db
      .insertInto('stored_file_deletions')
      .values(failed.map((key) => ({ storage_key: key })))
      .execute();
  }
  return taken;
}

/**
 * Removes the files of deleted rows when the server is ready and then every
 * FILE_REMOVAL_INTERVAL_MS: the deletions of any instance, or of SQL, within a minute.
 */
export function scheduleFileRemoval(app: FastifyInstance): void {
  runInBackground(app, FILE_REMOVAL_INTERVAL_MS, 'removing the files of deleted rows', async () => {
    const n = await removeDeletedFiles(app);
    if (n > 0) app.log.info({ removed: n }, 'stored files of deleted rows removed');
  });
}
