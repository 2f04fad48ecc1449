import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { supportDb } from '../src/modules/support/tables.ts';
import { UNATTACHED_UPLOAD_TTL_MS, removeUnattachedUploads } from '../src/modules/support/upload-cleanup.ts';
import type { TestClient } from './http-client.ts';
import { signedInUser } from './org-fixtures.ts';
import { isStored, uploadTicketFile } from './support-fixtures.ts';
import { createPostgresDatabase, startTestApp, testDbKind, type TestApp } from './test-app.ts';

/** Ticket attachments that no ticket took are removed with their files (support README, Tickets). */

async function row(t: TestApp, uuid: string) {
  return supportDb(t.app.db)
    .selectFrom('support_ticket_files')
    .select(['storage_key', 'ticket_id'])
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

/** Makes an upload look as if it had been made `hours` ago. */
async function age(t: TestApp, uuid: string, hours: number) {
  // `created` is not writable through the table types (it never changes in the portal).
  await sql`update support_ticket_files set created = ${new Date(Date.now() - hours * 3600_000)} where uuid = ${uuid}`.execute(
    t.app.db,
  );
}

describe('abandoned ticket uploads', () => {
  let t: TestApp;
  let developer: TestClient;

  beforeAll(async () => {
    t = await startTestApp({ IMPORT_CONTENT: 'false' });
    developer = await signedInUser(t, 'cleanup.developer@example.com');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('deletes uploads older than 24 hours that no ticket took, with their files, and keeps the rest', async () => {
    const abandoned = await uploadTicketFile(developer, 'abandoned.txt');
    const fresh = await uploadTicketFile(developer, 'fresh.txt');
    const attached = await uploadTicketFile(developer, 'attached.txt');
    const created = await developer.send(
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
        attachments: [attached.uuid],
      },
      'application/json',
    );
    expect(created.status, await created.clone().text()).toBe(201);
    await age(t, abandoned.uuid, 25);
    await age(t, attached.uuid, 25);
    await age(t, fresh.uuid, 23);
    const keys = {
      abandoned: (await row(t, abandoned.uuid))!.storage_key,
      fresh: (await row(t, fresh.uuid))!.storage_key,
      attached: (await row(t, attached.uuid))!.storage_key,
    };
    expect(await isStored(t, keys.abandoned)).toBe(true);

    expect(await removeUnattachedUploads(t.app)).toBe(1);
    expect(await row(t, abandoned.uuid)).toBeUndefined();
    expect(await isStored(t, keys.abandoned)).toBe(false);
    expect(await row(t, fresh.uuid)).toBeDefined();
    expect(await isStored(t, keys.fresh)).toBe(true);
    expect((await row(t, attached.uuid))?.ticket_id).not.toBeNull();
    expect(await isStored(t, keys.attached)).toBe(true);

    // The fresh one goes once it is a day old; nothing is removed twice.
    expect(await removeUnattachedUploads(t.app, new Date(Date.now() + UNATTACHED_UPLOAD_TTL_MS))).toBe(1);
    expect(await row(t, fresh.uuid)).toBeUndefined();
    expect(await isStored(t, keys.fresh)).toBe(false);
    expect(await removeUnattachedUploads(t.app)).toBe(0);
    expect(await isStored(t, keys.attached)).toBe(true);
  });

  it('an abandoned upload cannot be attached any more: the create call refuses it', async () => {
    const late = await uploadTicketFile(developer, 'late.txt');
    await age(t, late.uuid, 30);
    expect(await removeUnattachedUploads(t.app)).toBe(1);
    const res = await developer.send(
      'POST',
      '/api/support_ticket/create',
      {
        title: 'Late attachment',
        contact_info: 'phone',
        description: 'Attached a day later.',
        environment: 'Test',
        severity: 'Low',
        details: 'x',
        message: 'x',
        attachments: [late.uuid],
      },
      'application/json',
    );
    expect(res.status).toBe(400);
  });

  it('runs that overlap (several instances) remove every upload exactly once, in batches', async () => {
    const uploads = [];
    // More than one batch of 100, and the rate limit of 30 uploads an hour per user: the rows are
    // copies of one real upload, each with its own stored file.
    const original = await uploadTicketFile(developer, 'batch.txt');
    const source = (await row(t, original.uuid))!;
    for (let i = 0; i < 120; i++) {
      const key = `cl/cleanup-batch-${i}`;
      await t.app.storage.put(key, Buffer.from(`file ${i}`));
      uploads.push(key);
    }
    const uploader = await t.app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'cleanup.developer@example.com')
      .executeTakeFirstOrThrow();
    await supportDb(t.app.db)
      .insertInto('support_ticket_files')
      .values(
        uploads.map((key, i) => ({
          uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          uploader_id: uploader.id,
          file_name: `batch-${i}.txt`,
          mime: 'text/plain',
          size: 7,
          storage_key: key,
          created: new Date(Date.now() - 48 * 3600_000),
        })),
      )
      .execute();
    await age(t, original.uuid, 48);

    const counts = await Promise.all([removeUnattachedUploads(t.app), removeUnattachedUploads(t.app)]);
    expect(counts[0]! + counts[1]!).toBe(121);
    const left = await supportDb(t.app.db)
      .selectFrom('support_ticket_files')
      .select('id')
      .where('ticket_id', 'is', null)
      .execute();
    expect(left).toEqual([]);
    for (const key of [...uploads, source.storage_key]) expect(await isStored(t, key)).toBe(false);
  });
});

describe('abandoned ticket uploads, on start', () => {
  // Two portals started one after the other on one database: over the default 30 s on a busy
  // two-core machine (46 s measured at load 18), as for the other tests that start portals.
  it('a portal that starts removes the abandoned uploads of its database', { timeout: 120_000 }, async () => {
    // The same database and DATA_DIR (files) for two portals, one after the other.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-cleanup-'));
    const database = testDbKind() === 'postgres' ? await createPostgresDatabase() : undefined;
    const env = {
      IMPORT_CONTENT: 'false',
      DATA_DIR: dataDir,
      ...(database ? { DATABASE_URL: database.url } : {}),
    };
    let first: TestApp | undefined;
    let second: TestApp | undefined;
    try {
      first = await startTestApp(env);
      const developer = await signedInUser(first, 'cleanup.start@example.com');
      const abandoned = await uploadTicketFile(developer, 'left-behind.txt');
      await age(first, abandoned.uuid, 25);
      const key = (await row(first, abandoned.uuid))!.storage_key;
      await first.close();
      first = undefined;

      second = await startTestApp(env);
      const started = second;
      await vi.waitFor(
        async () => {
          expect(await row(started, abandoned.uuid)).toBeUndefined();
          expect(await isStored(started, key)).toBe(false);
        },
        { timeout: 15_000, interval: 50 },
      );
    } finally {
      await first?.close();
      await second?.close();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
