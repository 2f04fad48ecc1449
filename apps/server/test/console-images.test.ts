import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleImage, ConsoleImageList } from '@portico/contracts/console-images';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { ASSIGNABLE_ROLES } from '@portico/contracts/provider-roles';
import { exportArticles } from '../src/modules/content/export.ts';
import { exportConsoleImages } from '../src/modules/console-images/export.ts';
import { importConsoleImages } from '../src/modules/console-images/importer.ts';
import { IMAGE_UPLOADS_PER_HOUR } from '../src/modules/console-images/routes.ts';
import { imagesDb } from '../src/modules/console-images/tables.ts';
import { TestClient } from './http-client.ts';
import { png } from './image-fixtures.ts';
import { signedInUser } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** Images uploaded in the provider console (issue 27; modules/console-images/README.md). */

const M = en.console.images;
const O = en.organizations;
const REPO_CONTENT = path.resolve(import.meta.dirname, '../../../content');

interface ErrorDoc {
  errors: { status: string; code?: string; title: string }[];
}

async function csrf(client: TestClient): Promise<string> {
  client.csrfToken ??= await (await client.get('/session/token')).text();
  return client.csrfToken;
}

/** Uploads `bytes` as `name`, the way the console's dialog does (raw body, Content-Disposition). */
async function upload(
  client: TestClient,
  bytes: Buffer,
  name: string,
  contentType = 'application/octet-stream',
) {
  return client.request('/admin-api/images', {
    method: 'POST',
    headers: {
      'content-type': contentType,
      'content-disposition': `file; filename*=UTF-8''${encodeURIComponent(name)}`,
      'x-csrf-token': await csrf(client),
    },
    body: new Uint8Array(bytes),
  });
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

describe('console: images', () => {
  let t: TestApp;
  let editor: TestClient;
  const dirs: string[] = [];
  beforeAll(async () => {
    t = await startTestApp();
    editor = await signedInUser(t, 'images.editor@example.com', { roles: ['content_editor'] });
  });
  afterAll(async () => {
    await t?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** What a refused call must leave as it was: the rows, the stored files, the audit log. */
  const snapshot = async () => ({
    rows: (await imagesDb(t.app.db).selectFrom('console_images').select('uuid').execute()).length,
    files: filesUnder(path.join(t.config.dataDir, 'files')).length,
    audit: (
      await t.app.db.selectFrom('audit_log').select('id').where('action', '=', 'image.uploaded').execute()
    ).length,
  });

  it('content editors, API managers and administrators upload; the other roles, developers and anonymous callers are refused and nothing is stored', async () => {
    const manager = await signedInUser(t, 'images.manager@example.com', { roles: ['api_manager'] });
    const admin = await signedInUser(t, 'images.admin@example.com', { admin: true });
    for (const [client, who] of [
      [editor, 'editor'],
      [manager, 'manager'],
      [admin, 'admin'],
    ] as const) {
      const before = await snapshot();
      const res = await upload(client, png(4, 3), `${who} diagram.png`);
      expect(res.status, await res.clone().text()).toBe(201);
      const { data } = (await res.json()) as { data: ConsoleImage };
      expect(data).toMatchObject({ name: `${who} diagram.png`, type: 'image/png', width: 4, height: 3 });
      expect(data.url).toBe(`/images/console/${data.id}.png`);
      expect(res.headers.get('location')).toBe(data.url);
      expect(await snapshot()).toEqual({
        rows: before.rows + 1,
        files: before.files + 1,
        audit: before.audit + 1,
      });
    }
    const refused = ASSIGNABLE_ROLES.filter((r) => r !== 'content_editor' && r !== 'api_manager');
    expect(refused).toEqual(['support_agent', 'go_live_reviewer']);
    const others = [
      ...(await Promise.all(
        refused.map((role) =>
          signedInUser(t, `images.${role.replace(/_/g, '-')}@example.com`, { roles: [role] }),
        ),
      )),
      await signedInUser(t, 'images.developer@example.com'),
    ];
    const before = await snapshot();
    for (const client of others) {
      const res = await upload(client, png(2, 2), 'nope.png');
      expect(res.status).toBe(403);
      expect(((await res.json()) as ErrorDoc).errors[0]!.title).toBe(M.forbidden);
      const list = await client.get('/admin-api/images');
      expect(list.status).toBe(403);
    }
    const anonymous = await upload(new TestClient(t.baseUrl), png(2, 2), 'nope.png');
    expect([401, 403]).toContain(anonymous.status);
    expect((await new TestClient(t.baseUrl).get('/admin-api/images')).status).toBe(401);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses uploads past the hourly limit per user with 429 and Retry-After, storing nothing', async () => {
    const busy = await signedInUser(t, 'images.busy@example.com', { roles: ['content_editor'] });
    expect((await upload(busy, png(2, 2), 'first.png')).status).toBe(201);
    const key = async () => {
      const { id } = await t.app.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'images.busy@example.com')
        .executeTakeFirstOrThrow();
      return `console-image:user:${id}`;
    };
    const counted = await t.app.db
      .selectFrom('rate_limits')
      .select('count')
      .where('key', '=', await key())
      .executeTakeFirstOrThrow();
    expect(Number(counted.count)).toBe(1);
    // The rest of the hour's uploads made (the shared counter of lib/rate-limit.ts, as the support
    // area's attachments use it).
    await t.app.db
      .updateTable('rate_limits')
      .set({ count: IMAGE_UPLOADS_PER_HOUR })
      .where('key', '=', await key())
      .execute();
    const before = await snapshot();
    const refused = await upload(busy, png(2, 2), 'one too many.png');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as ErrorDoc).errors[0]!.title).toBe(
      format(M.errors.tooManyUploads, { max: IMAGE_UPLOADS_PER_HOUR }),
    );
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await snapshot()).toEqual(before);
    // Per user: another editor still uploads.
    expect((await upload(editor, png(2, 2), 'still fine.png')).status).toBe(201);
  });

  it('tells the type by the bytes: a .png that is HTML, an SVG, an empty file are refused with their message', async () => {
    const before = await snapshot();
    const html = await upload(
      editor,
      Buffer.from('<!doctype html><script>alert(document.cookie)</script>'),
      'cat.png',
      'image/png',
    );
    expect(html.status).toBe(415);
    const htmlError = ((await html.json()) as ErrorDoc).errors[0]!;
    expect(htmlError.title).toBe(`${O.uploadFailed}: ${M.errors.notAnImage}`);
    const svg = await upload(
      editor,
      Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      'logo.svg',
    );
    expect(svg.status).toBe(415);
    expect(((await svg.json()) as ErrorDoc).errors[0]!.title).toBe(
      `${O.uploadFailed}: ${M.errors.svgRefused}`,
    );
    const empty = await upload(editor, Buffer.alloc(0), 'empty.png');
    expect(empty.status).toBe(422);
    expect(((await empty.json()) as ErrorDoc).errors[0]!.title).toBe(`${O.uploadFailed}: ${O.fileEmpty}`);
    const unnamed = await editor.request('/admin-api/images', {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'x-csrf-token': await csrf(editor) },
      body: new Uint8Array(png(1, 1)),
    });
    expect(unnamed.status).toBe(422);
    expect(await snapshot()).toEqual(before);
    // The name is cleaned as every upload's (lib/uploads.ts); the type is the bytes', not the name's.
    const named = await upload(editor, png(1, 1), '../../etc/\u202Egnp.jpg');
    expect(named.status).toBe(201);
    const { data } = (await named.json()) as { data: ConsoleImage };
    expect(data.name).toBe('gnp.jpg');
    expect(data.type).toBe('image/png');
    expect(data.url.endsWith('.png')).toBe(true);
  });

  it('refuses an image over the limit of every upload with 413 and stores nothing', async () => {
    const before = await snapshot();
    const big = Buffer.concat([png(1, 1), Buffer.alloc(10 * 1024 * 1024)]);
    const res = await upload(editor, big, 'huge.png');
    expect(res.status).toBe(413);
    expect(((await res.json()) as ErrorDoc).errors[0]!.title).toBe(`${O.uploadFailed}: ${O.fileTooLarge}`);
    expect(await snapshot()).toEqual(before);
  });

  it('serves an uploaded image to anyone at its address with its type, nosniff and a long cache', async () => {
    const bytes = png(5, 2);
    const { data } = (await (await upload(editor, bytes, 'served.png')).json()) as { data: ConsoleImage };
    const res = await new TestClient(t.baseUrl).get(data.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    // Another extension, another uuid, a path: nothing.
    for (const url of [
      data.url.replace(/\.png$/, '.gif'),
      `/images/console/${crypto.randomUUID()}.png`,
      '/images/console/..%2f..%2fetc%2fpasswd',
      `/images/console/${data.id}`,
    ]) {
      expect((await new TestClient(t.baseUrl).get(url)).status, url).toBe(404);
    }
    // The audit log says who uploaded what.
    const entry = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'actor_email', 'target_type', 'target_label', 'after'])
      .where('target_id', '=', data.id)
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({
      action: 'image.uploaded',
      actor_email: 'images.editor@example.com',
      target_type: 'image',
      target_label: 'served.png',
    });
  });

  it('lists the uploaded images newest first, paged, with who uploaded them', async () => {
    const all = (await (await editor.get('/admin-api/images?page[limit]=100')).json()) as ConsoleImageList;
    expect(all.meta.count).toBe(all.data.length);
    expect(all.data.length).toBeGreaterThanOrEqual(5);
    const created = all.data.map((i) => i.created);
    expect(created).toEqual([...created].sort().reverse());
    expect(all.data[0]!.name).toBe('served.png');
    expect(all.data[0]!.uploadedBy).toBeTruthy();
    const second = (await (
      await editor.get('/admin-api/images?page[limit]=2&page[offset]=1')
    ).json()) as ConsoleImageList;
    expect(second.data.map((i) => i.id)).toEqual(all.data.slice(1, 3).map((i) => i.id));
    expect((await editor.get('/admin-api/images?page[limit]=1000')).status).toBe(400);
  });

  it('deletes an image no content shows: its row, its file, an audit entry; one still shown is refused with where', async () => {
    const del = async (client: TestClient, id: string) =>
      client.request(`/admin-api/images/${id}`, {
        method: 'DELETE',
        headers: { 'x-csrf-token': await csrf(client) },
      });
    const uploaded = async (name: string) =>
      ((await (await upload(editor, png(3, 3), name)).json()) as { data: ConsoleImage }).data;
    const post = async (url: string, body: object) => {
      const res = await editor.send('POST', url, body, 'application/json');
      expect(res.status, await res.clone().text()).toBe(201);
      return ((await res.json()) as { data: { id: string } }).data.id;
    };
    const refusal = async (id: string) => {
      const res = await del(editor, id);
      expect(res.status).toBe(409);
      return ((await res.json()) as ErrorDoc).errors[0]!.title;
    };
    const used = (uses: string) => format(M.errors.inUse, { uses });

    // In a draft article's Markdown, a scheduled page's main image, a draft FAQ answer, a story's step.
    const inArticle = await uploaded('in article.png');
    await post('/admin-api/content/articles', {
      title: 'Draft with a chart',
      path: '/blog/draft-with-a-chart',
      body: `Look:\n\n![A chart](${inArticle.url})`,
      state: 'draft',
    });
    const inPage = await uploaded('in page.png');
    await post('/admin-api/content/pages', {
      title: 'Scheduled page',
      path: '/scheduled-with-image',
      body: 'Soon.',
      imageUrl: `https://portal.example.com${inPage.url}`,
      imageAlt: 'A header',
      state: 'scheduled',
      publishAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const inFaq = await uploaded('in faq.png');
    await post('/admin-api/content/faqs', {
      question: 'Where is the diagram?',
      answer: `Here: ![Diagram](${inFaq.url})`,
    });
    const inStory = await uploaded('in story.png');
    await post('/admin-api/content/quickstart', {
      title: 'A story with a picture',
      steps: [{ target: '#main', content: `See ![Step](${inStory.url})` }],
    });

    const before = await snapshot();
    expect(await refusal(inArticle.id)).toBe(
      used(format(M.errors.usedIn.article, { title: 'Draft with a chart' })),
    );
    expect(await refusal(inPage.id)).toBe(used(format(M.errors.usedIn.page, { title: 'Scheduled page' })));
    expect(await refusal(inFaq.id)).toBe(
      used(format(M.errors.usedIn.faq, { title: 'Where is the diagram?' })),
    );
    expect(await refusal(inStory.id)).toBe(
      used(format(M.errors.usedIn.story, { title: 'A story with a picture' })),
    );
    expect(await snapshot()).toEqual(before);
    for (const image of [inArticle, inPage, inFaq, inStory]) {
      expect((await new TestClient(t.baseUrl).get(image.url)).status).toBe(200);
    }

    // The roles that may not upload may not delete either; an unknown image is a 404.
    const agent = await signedInUser(t, 'images.delete.agent@example.com', { roles: ['support_agent'] });
    const unused = await uploaded('unused.png');
    const kept = await snapshot();
    expect((await del(agent, unused.id)).status).toBe(403);
    expect((await del(new TestClient(t.baseUrl), unused.id)).status).toBe(401);
    expect((await del(editor, crypto.randomUUID())).status).toBe(404);
    expect((await del(editor, 'not-a-uuid')).status).toBe(404);
    expect(await snapshot()).toEqual(kept);

    const res = await del(editor, unused.id);
    expect(res.status, await res.clone().text()).toBe(204);
    // The row and, once committed, the stored file are gone; the address answers 404.
    expect(await snapshot()).toEqual({ ...kept, rows: kept.rows - 1, files: kept.files - 1 });
    expect((await new TestClient(t.baseUrl).get(unused.url)).status).toBe(404);
    expect((await del(editor, unused.id)).status).toBe(404);
    const entry = await t.app.db
      .selectFrom('audit_log')
      .select(['actor_email', 'target_type', 'target_label', 'before'])
      .where('action', '=', 'image.deleted')
      .where('target_id', '=', unused.id)
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({
      actor_email: 'images.editor@example.com',
      target_type: 'image',
      target_label: 'unused.png',
    });
    const list = (await (await editor.get('/admin-api/images?page[limit]=100')).json()) as ConsoleImageList;
    expect(list.data.map((i) => i.id)).not.toContain(unused.id);
  });

  it('export-content writes the images next to the texts: a portal started from the export shows them', async () => {
    const bytes = png(6, 6);
    const { data: image } = (await (await upload(editor, bytes, 'round trip.png')).json()) as {
      data: ConsoleImage;
    };
    const created = await editor.send(
      'POST',
      '/admin-api/content/articles',
      {
        title: 'With an uploaded image',
        path: '/blog/with-an-image',
        body: `![A chart](${image.url})`,
        state: 'published',
      },
      'application/json',
    );
    expect(created.status, await created.clone().text()).toBe(201);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-console-images-'));
    dirs.push(dir);
    fs.cpSync(REPO_CONTENT, dir, { recursive: true });
    await exportArticles(t.app.db, dir);
    const result = await exportConsoleImages(t.app.db, t.app.storage, dir);
    expect(result.written).toContain(`images/console/${image.id}.png`);
    expect(result.missing).toEqual([]);
    // Unchanged on a second export.
    expect((await exportConsoleImages(t.app.db, t.app.storage, dir)).written).toEqual([]);

    // The content import checks the article's link to the image (it would stop the start if the
    // file were not there), and the address serves the exported file.
    const fresh = await startTestApp({ CONTENT_DIR: dir });
    try {
      const res = await new TestClient(fresh.baseUrl).get(image.url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
      const article = await sql<{ body_html: string }>`select body_html from articles
        where path = '/blog/with-an-image'`.execute(fresh.app.db);
      expect(article.rows[0]?.body_html).toContain(`<img src="${image.url}" alt="A chart"`);

      // The content import registered the exported image: the picker lists it, under its file's name.
      const freshEditor = await signedInUser(fresh, 'images.fresh@example.com', {
        roles: ['content_editor'],
      });
      const listed = (await (
        await freshEditor.get('/admin-api/images?page[limit]=100')
      ).json()) as ConsoleImageList;
      expect(listed.data.filter((i) => i.id === image.id)).toEqual([
        expect.objectContaining({
          url: image.url,
          name: `${image.id}.png`,
          type: 'image/png',
          size: bytes.length,
          width: 6,
          height: 6,
          uploadedBy: null,
        }),
      ]);
      // A second import (as at the next start) adds nothing; a stray file is skipped, not registered.
      fs.writeFileSync(path.join(dir, 'images', 'console', 'notes.txt'), 'not an image');
      const rows = () =>
        imagesDb(fresh.app.db)
          .selectFrom('console_images')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow();
      const before = await rows();
      expect(await importConsoleImages(fresh.app.db, fresh.app.storage, dir)).toEqual({
        registered: [],
        skipped: ['notes.txt'],
      });
      expect(await rows()).toEqual(before);
      // Served from the storage now, the same bytes.
      const again = await new TestClient(fresh.baseUrl).get(image.url);
      expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
    } finally {
      await fresh.close();
    }
    // A fresh portal imports the whole content folder: longer than the default on a busy machine.
  }, 120_000);
});
