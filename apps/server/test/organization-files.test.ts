import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { en } from '@portico/contracts/messages';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDeletedFiles } from '../src/lib/file-removal.ts';
import { createS3Storage } from '../src/lib/s3-storage.ts';
import { organizationDeleteGuards } from '../src/modules/organizations/authz.ts';
import { TestClient } from './http-client.ts';
import {
  CERT_PEM,
  PNG_1X1,
  accept,
  body,
  createOrg,
  invite,
  signedInUser,
  upload,
  type JsonApiErrorBody,
  type OrgResource,
} from './org-fixtures.ts';
import { startS3Server, type TestS3Server } from './s3-server.ts';
import { freePort, startTestApp, type TestApp } from './test-app.ts';

const M = en.organizations;

interface FileDoc {
  data: {
    type: string;
    id: string;
    attributes: {
      fid: number;
      uuid: string;
      url: string;
      fileName: string;
      fileSize: number;
      filemime: string;
    };
  };
}

/** The files under a folder, recursively, except the temporary ones. */
function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .filter((p) => !p.includes(`${path.sep}.tmp${path.sep}`));
}

/**
 * The same tests with the files in DATA_DIR/files and in an S3 bucket (STORAGE_URL pointing at a
 * local S3-compatible server): uploads, downloads and deletions go through the storage over HTTP.
 */
describe.each(['folder', 'S3'] as const)(
  'organization files in %s storage: uploads, content checks, serving and deletion',
  (backend) => {
    let t: TestApp;
    let s3: TestS3Server | undefined;
    let owner: TestClient;
    let org: OrgResource;
    const prefix = 'portal/uploads/';
    /** The stored files: in DATA_DIR/files, or the objects in the S3 server's bucket under the prefix. */
    const storedFiles = (app: TestApp): string[] =>
      s3
        ? filesUnder(path.join(s3.directory, s3.bucket, prefix)).filter((f) => f.endsWith('._S3rver_object'))
        : filesUnder(path.join(app.config.dataDir, 'files'));

    beforeAll(async () => {
      if (backend === 'S3') s3 = await startS3Server();
      t = await startTestApp({ LOGIN_RATE_LIMIT: '1000', ...s3?.env(prefix) });
      owner = await signedInUser(t, 'fay.files@example.com');
      org = await createOrg(owner, 'Files Org');
    });
    afterAll(async () => {
      await t?.close();
      await s3?.close();
    });

    it('keeps the uploaded bytes where the configuration says', async () => {
      const before = storedFiles(t).length;
      const res = await upload(owner, org.id, 'field_documents', 'where.txt', 'in the configured storage');
      expect(res.status).toBe(201);
      expect(storedFiles(t).length).toBe(before + 1);
      if (s3) {
        // Nothing in the local folder: the object is in the bucket, where another instance with
        // the same STORAGE_URL (here: a second client) reads it.
        expect(filesUnder(path.join(t.config.dataDir, 'files'))).toEqual([]);
        const { id } = (await body<FileDoc>(res)).data;
        const row = await t.app.db
          .selectFrom('files')
          .select('storage_key')
          .where('uuid', '=', id)
          .executeTakeFirstOrThrow();
        if (t.config.storage.kind !== 's3') throw new Error('STORAGE_URL was not read');
        const other = createS3Storage(t.config.storage);
        try {
          let text = '';
          for await (const chunk of (await other.get(row.storage_key))!) text += String(chunk);
          expect(text).toBe('in the configured storage');
        } finally {
          await other.close();
        }
      }
    });

    it('serves a big document byte for byte', async () => {
      const big = Buffer.alloc(9 * 1024 * 1024, 'Portico ');
      const res = await upload(owner, org.id, 'field_documents', 'big.txt', big);
      expect(res.status).toBe(201);
      const served = await owner.get(new URL((await body<FileDoc>(res)).data.attributes.url).pathname);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(big)).toBe(true);
    });

    const refusal = async (res: Response) => {
      const err = await body<JsonApiErrorBody>(res);
      return { status: res.status, title: err.errors[0]?.title, detail: err.errors[0]?.detail };
    };

    it('accepts a .txt document: 201 with the file--file resource, stored and served to members', async () => {
      const res = await upload(owner, org.id, 'field_documents', 'notes.txt', 'Plain text, UTF-8: żółw');
      expect(res.status).toBe(201);
      const doc = await body<FileDoc>(res);
      expect(doc.data.type).toBe('file--file');
      expect(doc.data.attributes).toMatchObject({
        fileName: 'notes.txt',
        fileSize: Buffer.byteLength('Plain text, UTF-8: żółw'),
        filemime: 'text/plain; charset=utf-8',
        uuid: doc.data.id,
      });
      expect(doc.data.attributes.fid).toBeGreaterThan(0);
      const served = await owner.get(new URL(doc.data.attributes.url).pathname);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-disposition')).toMatch(/^attachment; filename="notes.txt"/);
      expect(await served.text()).toBe('Plain text, UTF-8: żółw');
      // The upload is one of the organization's documents at once.
      const orgDoc = await body<{ data: OrgResource; included: { id: string }[] }>(
        await owner.get(`/jsonapi/group/organization/${org.id}?include=field_documents`),
      );
      expect(orgDoc.data.relationships.field_documents.data.map((d) => d.id)).toContain(doc.data.id);
      expect(orgDoc.included.map((i) => i.id)).toContain(doc.data.id);
    });

    it('refuses a bad extension with the exact messages', async () => {
      for (const name of ['setup.exe', 'noextension', 'logo.png', 'script.pdf.js']) {
        expect(await refusal(await upload(owner, org.id, 'field_documents', name, 'MZ...'))).toEqual({
          status: 422,
          title: M.uploadFailed,
          detail: M.extensionNotAllowed,
        });
      }
      expect(await refusal(await upload(owner, org.id, 'field_image', 'notes.pdf', '%PDF-1.7'))).toEqual({
        status: 422,
        title: M.uploadFailed,
        detail: M.extensionNotAllowed,
      });
    });

    it('checks the content against the extension', async () => {
      const mismatch = { status: 422, title: M.uploadFailed, detail: M.contentMismatch };
      expect(
        await refusal(await upload(owner, org.id, 'field_documents', 'fake.pdf', 'not a pdf at all')),
      ).toEqual(mismatch);
      expect(await refusal(await upload(owner, org.id, 'field_documents', 'cert.crt', 'garbage'))).toEqual(
        mismatch,
      );
      expect(
        await refusal(
          await upload(owner, org.id, 'field_documents', 'cert.pem', CERT_PEM.replace('MIIB', 'XXXX')),
        ),
      ).toEqual(mismatch);
      expect(
        await refusal(
          await upload(owner, org.id, 'field_documents', 'binary.txt', Buffer.from([0, 1, 2, 0xff])),
        ),
      ).toEqual(mismatch);
      expect(
        await refusal(await upload(owner, org.id, 'field_documents', 'old.doc', 'PK\u0003\u0004')),
      ).toEqual(mismatch);
      expect(await refusal(await upload(owner, org.id, 'field_image', 'logo.jpg', PNG_1X1))).toEqual(
        mismatch,
      );
      expect(await refusal(await upload(owner, org.id, 'field_documents', 'empty.txt', ''))).toEqual({
        status: 422,
        title: M.uploadFailed,
        detail: M.fileEmpty,
      });
      const ok = async (name: string, data: Buffer | string) =>
        (await upload(owner, org.id, 'field_documents', name, data)).status;
      expect(await ok('real.pdf', '%PDF-1.4\n%%EOF\n')).toBe(201);
      expect(await ok('cert.pem', CERT_PEM)).toBe(201);
      expect(await ok('cert.crt', CERT_PEM)).toBe(201);
      expect(await ok('cert.cer', Buffer.from(new X509Certificate(CERT_PEM).raw))).toBe(201);
      expect(await ok('cert.der', Buffer.from(new X509Certificate(CERT_PEM).raw))).toBe(201);
      expect(await ok('old.doc', Buffer.from('d0cf11e0a1b11ae1000000000000', 'hex'))).toBe(201);
    });

    it('refuses files over 10 MiB with a 413 in the same error shape', async () => {
      const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x41);
      expect(await refusal(await upload(owner, org.id, 'field_documents', 'big.txt', big))).toEqual({
        status: 413,
        title: M.uploadFailed,
        detail: M.fileTooLarge,
      });
    });

    it('checks the caller before reading the body', async () => {
      const stranger = await signedInUser(t, 'stan.stranger@example.com');
      const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x41);
      expect((await upload(stranger, org.id, 'field_documents', 'big.txt', big)).status).toBe(404);
      expect(
        (await upload(new TestClient(t.baseUrl), org.id, 'field_documents', 'big.txt', big)).status,
      ).toBe(401);
    });

    it('refuses an upload without the organization parameter or with an unknown field', async () => {
      owner.csrfToken ??= await (await owner.get('/session/token')).text();
      const noOrg = await owner.request('/jsonapi/group/organization/field_documents', {
        method: 'POST',
        headers: {
          'content-type': 'application/octet-stream',
          'content-disposition': 'file; filename="a.txt"',
          'x-csrf-token': owner.csrfToken,
        },
        body: 'text',
      });
      expect(noOrg.status).toBe(400);
      expect((await body<JsonApiErrorBody>(noOrg)).errors[0]?.title).toBe(en.api.organizationParameter);
      // Other query parameters: a 400 of the shared JSON:API layer naming the parameter.
      for (const [query, parameter] of [
        [`organization=${org.id}&include=field_image`, 'include'],
        [`organization=${org.id}&filter[x]=1`, 'filter[x]'],
        [`organization=${org.id}&organization=${org.id}`, 'organization'],
        [`organization=${org.id}&foo=1`, 'foo'],
      ] as const) {
        const res = await owner.request(`/jsonapi/group/organization/field_documents?${query}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/octet-stream',
            'content-disposition': 'file; filename="a.txt"',
            'x-csrf-token': owner.csrfToken,
          },
          body: 'text',
        });
        expect(res.status, query).toBe(400);
        const error = (await body<{ errors: { code: string; source?: { parameter?: string } }[] }>(res))
          .errors[0];
        expect(error, query).toMatchObject({ code: 'invalid_query', source: { parameter } });
      }
      const noName = await owner.request(
        `/jsonapi/group/organization/field_documents?organization=${org.id}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/octet-stream', 'x-csrf-token': owner.csrfToken },
          body: 'text',
        },
      );
      expect(await refusal(noName)).toEqual({
        status: 422,
        title: M.uploadFailed,
        detail: M.fileNameMissing,
      });
      expect((await upload(owner, org.id, 'field_other' as 'field_image', 'a.txt', 'x')).status).toBe(404);
      const inPath = await owner.request(`/jsonapi/group/organization/${org.id}/field_documents`, {
        method: 'POST',
        headers: {
          'content-type': 'application/octet-stream',
          'content-disposition': 'file; filename="path-form.txt"',
          'x-csrf-token': owner.csrfToken,
        },
        body: 'organization named in the path',
      });
      expect(inPath.status).toBe(201);
    });

    it('serves the organization image publicly; a new image replaces the old file', async () => {
      const first = await body<FileDoc>(await upload(owner, org.id, 'field_image', 'logo.png', PNG_1X1));
      const anonymous = new TestClient(t.baseUrl);
      const firstUrl = new URL(first.data.attributes.url).pathname;
      const served = await anonymous.get(firstUrl);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await served.arrayBuffer()).equals(PNG_1X1)).toBe(true);
      const before = storedFiles(t).length;
      const second = await body<FileDoc>(await upload(owner, org.id, 'field_image', 'logo2.png', PNG_1X1));
      expect(storedFiles(t).length).toBe(before);
      expect((await anonymous.get(firstUrl)).status).toBe(404);
      const orgDoc = await body<{ data: OrgResource }>(
        await owner.get(`/jsonapi/group/organization/${org.id}`),
      );
      expect(orgDoc.data.relationships.field_image.data?.id).toBe(second.data.id);
      // A wrong file name in the URL is not found.
      expect((await anonymous.get(`/files/${second.data.id}/other.png`)).status).toBe(404);
    });

    it('PATCH field_documents replaces the list (documents left out are deleted); field_image null removes the image', async () => {
      const keep = await body<FileDoc>(await upload(owner, org.id, 'field_documents', 'keep.txt', 'keep me'));
      const drop = await body<FileDoc>(await upload(owner, org.id, 'field_documents', 'drop.txt', 'drop me'));
      const stored = storedFiles(t).length;
      const res = await owner.send('PATCH', `/jsonapi/group/organization/${org.id}`, {
        data: {
          type: 'group--organization',
          id: org.id,
          attributes: {
            label: 'Files Org',
            field_body: { value: 'Now with documents', format: 'plain_text' },
          },
          relationships: {
            field_documents: { data: [{ type: 'file--file', id: keep.data.id }] },
            field_image: { data: null },
          },
        },
      });
      expect(res.status).toBe(200);
      const doc = await body<{ data: OrgResource }>(res);
      expect(doc.data.relationships.field_documents.data.map((d) => d.id)).toEqual([keep.data.id]);
      expect(doc.data.relationships.field_image.data).toBeNull();
      expect(doc.data.attributes.field_body.value).toBe('Now with documents');
      expect(storedFiles(t).length).toBeLessThan(stored);
      expect((await owner.get(new URL(drop.data.attributes.url).pathname)).status).toBe(404);
      const foreign = await owner.send('PATCH', `/jsonapi/group/organization/${org.id}`, {
        data: {
          type: 'group--organization',
          relationships: {
            field_documents: { data: [{ type: 'file--file', id: '00000000-0000-4000-8000-000000000000' }] },
          },
        },
      });
      expect(foreign.status).toBe(422);
    });

    it('deletes an organization with its memberships, files and stored bytes', async () => {
      const doomed = await createOrg(owner, 'Doomed Org');
      const member = await signedInUser(t, 'mia.member@example.com');
      await invite(owner, doomed.id, 'mia.member@example.com', ['organization-developer']);
      await accept(member, doomed.id);
      const file = await body<FileDoc>(
        await upload(owner, doomed.id, 'field_documents', 'doomed.txt', 'bye'),
      );
      await upload(owner, doomed.id, 'field_image', 'doomed.png', PNG_1X1);
      const before = storedFiles(t).length;
      const res = await owner.send('DELETE', `/jsonapi/group/organization/${doomed.id}/delete_custom`);
      expect(res.status).toBe(204);
      expect(storedFiles(t).length).toBe(before - 2);
      const left = await t.app.db
        .selectFrom('memberships')
        .innerJoin('organizations', 'organizations.id', 'memberships.organization_id')
        .select('memberships.id')
        .where('organizations.uuid', '=', doomed.id)
        .execute();
      expect(left).toHaveLength(0);
      expect(
        await t.app.db.selectFrom('files').select('id').where('uuid', '=', file.data.id).execute(),
      ).toHaveLength(0);
      expect((await member.get(`/jsonapi/group/organization/${doomed.id}`)).status).toBe(404);
    });

    it('removes the stored files of rows deleted by any path, only once the deletion commits', async () => {
      const stored = async (key: string) => {
        const stream = await t.app.storage.get(key);
        stream?.destroy();
        return stream !== undefined;
      };
      const keysOf = async (orgUuid: string) =>
        (
          await t.app.db
            .selectFrom('files')
            .innerJoin('organizations', 'organizations.id', 'files.organization_id')
            .select('files.storage_key')
            .where('organizations.uuid', '=', orgUuid)
            .execute()
        ).map((f) => f.storage_key);
      const gone = await createOrg(owner, 'Gone By SQL');
      expect((await upload(owner, gone.id, 'field_documents', 'one.txt', 'one')).status).toBe(201);
      expect((await upload(owner, gone.id, 'field_documents', 'two.txt', 'two')).status).toBe(201);
      expect((await upload(owner, gone.id, 'field_image', 'logo.png', PNG_1X1)).status).toBe(201);
      const keys = await keysOf(gone.id);
      expect(keys).toHaveLength(3);
      for (const key of keys) expect(await stored(key)).toBe(true);

      // A deletion that rolls back queues nothing: the files stay with their rows.
      await expect(
        t.app.db.transaction().execute(async (trx) => {
          await sql`delete from organizations where uuid = ${gone.id}`.execute(trx);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await removeDeletedFiles(t.app)).toBe(0);
      for (const key of keys) expect(await stored(key)).toBe(true);

      // One document deleted on its own (an administrator's SQL): its file only.
      await sql`delete from files where storage_key = ${keys[0]!}`.execute(t.app.db);
      expect(await removeDeletedFiles(t.app)).toBe(1);
      expect(await stored(keys[0]!)).toBe(false);
      expect(await stored(keys[1]!)).toBe(true);

      // The organization deleted in SQL: its files go by the cascade, their stored bytes after it.
      await sql`delete from organizations where uuid = ${gone.id}`.execute(t.app.db);
      expect(await removeDeletedFiles(t.app)).toBe(2);
      for (const key of keys) expect(await stored(key)).toBe(false);
      expect(await t.app.db.selectFrom('stored_file_deletions').select('id').execute()).toEqual([]);
    });

    it('removes the stored files when a route deletes their rows, before it answers', async () => {
      const org2 = await createOrg(owner, 'Files Replaced');
      const doc = await body<FileDoc>(await upload(owner, org2.id, 'field_documents', 'a.txt', 'a'));
      const first = await body<FileDoc>(await upload(owner, org2.id, 'field_image', 'a.png', PNG_1X1));
      const keyOf = async (uuid: string) =>
        (
          await t.app.db
            .selectFrom('files')
            .select('storage_key')
            .where('uuid', '=', uuid)
            .executeTakeFirstOrThrow()
        ).storage_key;
      const [docKey, firstKey] = [await keyOf(doc.data.id), await keyOf(first.data.id)];
      const removed = () => t.app.storage.get(firstKey).then((s) => (s?.destroy(), s === undefined));
      // A new image replaces the old one: the old file is gone when the upload answers.
      expect((await upload(owner, org2.id, 'field_image', 'b.png', PNG_1X1)).status).toBe(201);
      expect(await removed()).toBe(true);
      // PATCH leaving a document out deletes it and its file.
      const patched = await owner.send('PATCH', `/jsonapi/group/organization/${org2.id}`, {
        data: {
          type: 'group--organization',
          id: org2.id,
          relationships: { field_documents: { data: [] } },
        },
      });
      expect(patched.status).toBe(200);
      const docStream = await t.app.storage.get(docKey);
      docStream?.destroy();
      expect(docStream).toBeUndefined();
      expect(await t.app.db.selectFrom('stored_file_deletions').select('id').execute()).toEqual([]);
    });

    it('leaves no stored file behind when the database insert fails', async () => {
      await sql`create function refuse_files() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`.execute(
        t.app.db,
      );
      await sql`create trigger refuse_files before insert on files for each row execute function refuse_files()`.execute(
        t.app.db,
      );
      try {
        const before = storedFiles(t).length;
        const res = await upload(owner, org.id, 'field_documents', 'lost.txt', 'never stored');
        expect(res.status).toBe(500);
        expect(storedFiles(t).length).toBe(before);
        expect(
          await t.app.db.selectFrom('files').select('id').where('filename', '=', 'lost.txt').execute(),
        ).toHaveLength(0);
      } finally {
        await sql`drop trigger refuse_files on files`.execute(t.app.db);
        await sql`drop function refuse_files()`.execute(t.app.db);
      }
    });

    it('refuses to delete an organization with an application in PRODUCTION', async () => {
      const live = await createOrg(owner, 'Live Org');
      // The built-in guard reads the applications table (migration 0050): one application in PRODUCTION.
      await sql`insert into applications (organization_id, title, grant_types, status)
      values (${live.attributes.drupal_internal__id}, 'Live App', ${['client_credentials']}, 'PRODUCTION')`.execute(
        t.app.db,
      );
      try {
        const res = await owner.send('DELETE', `/jsonapi/group/organization/${live.id}/delete_custom`);
        expect(res.status).toBe(409);
        expect((await body<JsonApiErrorBody>(res)).errors[0]?.title).toBe(
          M.deleteNotAllowed.replace('{{email}}', t.config.supportEmail),
        );
        expect((await owner.get(`/jsonapi/group/organization/${live.id}`)).status).toBe(200);
        await sql`update applications set status = 'DEVELOPMENT' where organization_id = ${live.attributes.drupal_internal__id}`.execute(
          t.app.db,
        );
        // Guards pushed by other modules run too.
        organizationDeleteGuards.push(async (_trx, o) =>
          o.uuid === live.id ? 'Held by a test guard.' : null,
        );
        const held = await owner.send('DELETE', `/jsonapi/group/organization/${live.id}/delete_custom`);
        expect(held.status).toBe(409);
        expect((await body<JsonApiErrorBody>(held)).errors[0]?.title).toBe('Held by a test guard.');
        organizationDeleteGuards.pop();
        expect(
          (await owner.send('DELETE', `/jsonapi/group/organization/${live.id}/delete_custom`)).status,
        ).toBe(204);
      } finally {
        await sql`delete from applications where organization_id = ${live.attributes.drupal_internal__id}`.execute(
          t.app.db,
        );
      }
    });
  },
);

describe('organization invitations through a real SMTP server', () => {
  let t: TestApp;
  let smtp: SMTPServer;
  const received: { to: string[]; data: string }[] = [];

  beforeAll(async () => {
    const port = await freePort();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            data: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
    t = await startTestApp({ LOGIN_RATE_LIMIT: '1000', SMTP_URL: `smtp://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('sends the invitation e-mail with the link to the organization, and records it as sent', async () => {
    const owner = await signedInUser(t, 'sid.smtp@example.com');
    const org = await createOrg(owner, 'Mail Org');
    const res = await invite(owner, org.id, 'guest@example.com', ['organization-financial']);
    expect(res.status).toBe(201);
    expect((await body<{ meta: { mailSent: boolean } }>(res)).meta.mailSent).toBe(true);
    const mail = received.find((m) => m.to.includes('guest@example.com'));
    expect(mail).toBeDefined();
    expect(mail!.data).toContain('Subject: You are invited to join Mail Org');
    expect(mail!.data.replace(/=\r?\n/g, '')).toContain(`/organization/${org.id}`);
    const row = await t.app.db
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', 'guest@example.com')
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('sent');
  });
});
