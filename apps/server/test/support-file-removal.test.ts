import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { removeDeletedFiles } from '../src/lib/file-removal.ts';
import { supportDb } from '../src/modules/support/tables.ts';
import type { TestClient } from './http-client.ts';
import { signedInUser } from './org-fixtures.ts';
import { isStored, uploadTicketFile } from './support-fixtures.ts';
import { startS3Server, type TestS3Server } from './s3-server.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * The stored files of ticket attachments go with their rows (support README, Tickets; migration
 * 0240): a ticket deleted (its attachments by the cascade) or an attachment deleted on its own,
 * through any path, SQL included; only once the deletion commits; a file that cannot be removed
 * is logged and does not stop the others.
 */

let uploads = 0;

async function ticketWithFiles(
  client: TestClient,
  count: number,
): Promise<{ ticketId: number; keys: string[] }> {
  const uuids: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = `attachment-${++uploads}.txt`;
    uuids.push((await uploadTicketFile(client, name)).uuid);
  }
  const created = await client.send(
    'POST',
    '/api/support_ticket/create',
    {
      title: 'Sandbox 502',
      contact_info: 'phone',
      description: 'Every call answers 502.',
      environment: 'Test',
      severity: 'High',
      details: 'Since 08:10 UTC.',
      message: 'Since 08:10 UTC.',
      attachments: uuids,
    },
    'application/json',
  );
  expect(created.status, await created.clone().text()).toBe(201);
  const rows = await supportDb(t.app.db)
    .selectFrom('support_ticket_files')
    .select(['ticket_id', 'storage_key'])
    .where('uuid', 'in', uuids)
    .execute();
  expect(rows).toHaveLength(count);
  expect(rows[0]!.ticket_id).not.toBeNull();
  return { ticketId: rows[0]!.ticket_id!, keys: rows.map((r) => r.storage_key) };
}

const stored = (key: string) => isStored(t, key);

async function queued(): Promise<string[]> {
  const rows = await t.app.db.selectFrom('stored_file_deletions').select('storage_key').execute();
  return rows.map((r) => r.storage_key);
}

let t: TestApp;
let developer: TestClient;

// The same tests with the files in DATA_DIR/files and in an S3 bucket (a local S3-compatible server).
describe.each(['folder', 'S3'] as const)(
  'the stored files of deleted ticket attachments (%s storage)',
  (backend) => {
    let s3: TestS3Server | undefined;
    beforeAll(async () => {
      if (backend === 'S3') s3 = await startS3Server();
      t = await startTestApp({ IMPORT_CONTENT: 'false', ...s3?.env('portal/uploads/') });
      developer = await signedInUser(t, 'file.removal@example.com');
    });
    afterAll(async () => {
      await t?.close();
      await s3?.close();
    });

    it('removes the files of a deleted ticket after the deletion commits, never after a rollback', async () => {
      const { ticketId, keys } = await ticketWithFiles(developer, 2);
      for (const key of keys) expect(await stored(key)).toBe(true);

      // A deletion that rolls back queues nothing: the files stay with their rows.
      await expect(
        t.app.db.transaction().execute(async (trx) => {
          await sql`delete from support_tickets where id = ${ticketId}`.execute(trx);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await removeDeletedFiles(t.app)).toBe(0);
      for (const key of keys) expect(await stored(key)).toBe(true);

      // As an administrator would, in SQL: the attachments go by the cascade, their files after it.
      await sql`delete from support_tickets where id = ${ticketId}`.execute(t.app.db);
      expect((await queued()).sort()).toEqual([...keys].sort());
      expect(await removeDeletedFiles(t.app)).toBe(2);
      for (const key of keys) expect(await stored(key)).toBe(false);
      expect(await queued()).toEqual([]);
    });

    it('removes the file of an attachment deleted on its own, and of a deleted reporter’s tickets', async () => {
      const { keys } = await ticketWithFiles(developer, 2);
      await sql`delete from support_ticket_files where storage_key = ${keys[0]!}`.execute(t.app.db);
      expect(await removeDeletedFiles(t.app)).toBe(1);
      expect(await stored(keys[0]!)).toBe(false);
      expect(await stored(keys[1]!)).toBe(true);

      const leaving = await signedInUser(t, 'file.removal.leaving@example.com');
      const theirs = await ticketWithFiles(leaving, 1);
      await sql`delete from users where email = 'file.removal.leaving@example.com'`.execute(t.app.db);
      expect(await removeDeletedFiles(t.app)).toBe(1);
      expect(await stored(theirs.keys[0]!)).toBe(false);
      expect(await stored(keys[1]!)).toBe(true);
    });

    it('logs a file that cannot be removed, goes on with the others and tries it again later', async () => {
      const { ticketId, keys } = await ticketWithFiles(developer, 2);
      const [failing, removable] = keys as [string, string];
      const storageDelete = t.app.storage.delete;
      const warn = vi.spyOn(t.app.log, 'warn');
      t.app.storage.delete = async (key) => {
        if (key === failing) throw new Error('storage unavailable');
        return storageDelete(key);
      };
      try {
        await sql`delete from support_tickets where id = ${ticketId}`.execute(t.app.db);
        expect(await removeDeletedFiles(t.app)).toBe(2);
        expect(warn).toHaveBeenCalledWith(
          expect.objectContaining({ key: failing }),
          'removing the file of a deleted row failed',
        );
      } finally {
        t.app.storage.delete = storageDelete;
        warn.mockRestore();
      }
      expect(await stored(removable)).toBe(false);
      expect(await stored(failing)).toBe(true);
      // Queued again: the next run (the storage back) removes it.
      expect(await queued()).toEqual([failing]);
      expect(await removeDeletedFiles(t.app)).toBe(1);
      expect(await stored(failing)).toBe(false);
      expect(await queued()).toEqual([]);
    });
  },
);
