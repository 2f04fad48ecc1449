import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteDocument, SiteDocumentChange, SiteRevision } from '@portico/contracts/console-site';
import { en } from '@portico/contracts/messages';

import type { BlockLayout, CookiesConsent } from '@portico/contracts/site';
import { exportSiteContent } from '../src/modules/site/export.ts';
import { siteImporter } from '../src/modules/site/importer.ts';
import { TestClient } from './http-client.ts';
import { signedInUser } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * The site's texts in the provider console (issue 27, modules/site/README.md 'Console'): the
 * block layout and the cookie popup, saved whole with a version, revisions and conflicts; the
 * public answers change at once; the import keeps what the console saved; export writes it back.
 */
const M = en.console.site;
const REPO_CONTENT = path.resolve(import.meta.dirname, '../../../content');

async function json<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

describe('console: site texts', () => {
  let t: TestApp;
  let editor: TestClient;
  let admin: TestClient;
  const dirs: string[] = [];
  beforeAll(async () => {
    t = await startTestApp();
    editor = await signedInUser(t, 'site.editor@example.com', { roles: ['content_editor'] });
    admin = await signedInUser(t, 'site.admin@example.com', { admin: true });
  });
  afterAll(async () => {
    await t?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const read = async <K extends 'block-layout' | 'cookies-consent'>(key: K, client = editor) => {
    const res = await client.get(`/admin-api/site/${key}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^"\d+"$/);
    return (await json<{ data: SiteDocument<K> }>(res)).data;
  };
  const save = (key: string, body: unknown, client = editor) =>
    client.send('PUT', `/admin-api/site/${key}`, body, 'application/json');
  const publicLayout = async () =>
    json<BlockLayout>(await new TestClient(t.baseUrl).get('/block-layout?_format=json'));

  it('reads the imported documents, and a save shows on the site at once, with a revision and an audit entry', async () => {
    const layout = await read('block-layout');
    expect(layout.editedAt).toBeNull();
    expect(layout.content.footer.map((f) => f.title)).toEqual(['Developers', 'Support', 'Legal']);
    // The public answer is cached until the table changes: read it once before the save.
    expect((await publicLayout()).footer).toHaveLength(3);

    const content: BlockLayout = {
      ...layout.content,
      footer: [
        ...layout.content.footer,
        { title: 'Partners', links: [{ title: 'Become a partner', url: '/partners', external: false }] },
      ],
      bottomBanners: [
        ...layout.content.bottomBanners,
        { title: 'Scale', description: '<p>Grow.</p><script>alert(1)</script>' },
      ],
    };
    const res = await save('block-layout', { content, version: layout.version });
    expect(res.status, await res.clone().text()).toBe(200);
    const saved = (await json<{ data: SiteDocument<'block-layout'> }>(res)).data;
    expect(saved.version).toBe(layout.version + 1);
    expect(saved.editedAt).not.toBeNull();
    // HTML is stored sanitized.
    expect(saved.content.bottomBanners.at(-1)!.description).toBe('<p>Grow.</p>');

    const shown = await publicLayout();
    expect(shown.footer.map((f) => f.title)).toEqual(['Developers', 'Support', 'Legal', 'Partners']);
    expect(shown.bottomBanners.at(-1)).toMatchObject({ title: 'Scale', description: '<p>Grow.</p>' });

    const revisions = await json<{ data: SiteRevision[] }>(
      await editor.get('/admin-api/site/block-layout/revisions'),
    );
    expect(revisions.data[0]).toMatchObject({ version: saved.version, author: 'site.editor@example.com' });
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'actor_email', 'target_type', 'target_id', 'before', 'after'])
      .where('target_type', '=', 'site_content')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({
      action: 'site_content.updated',
      actor_email: 'site.editor@example.com',
      target_id: 'block-layout',
    });
    const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as { version: number };
    expect(parse(audit.before).version).toBe(layout.version);
    expect(parse(audit.after).version).toBe(saved.version);
  });

  it('refuses a save that started from an older version with 409 and the difference, keeping the newer one', async () => {
    const start = await read('cookies-consent');
    const theirs: CookiesConsent = { ...start.content, popup: { ...start.content.popup, accept: 'Fine' } };
    expect((await save('cookies-consent', { content: theirs, version: start.version }, admin)).status).toBe(
      200,
    );
    const mine: CookiesConsent = {
      ...start.content,
      popup: { ...start.content.popup, dismiss: 'No thanks' },
    };
    const res = await save('cookies-consent', { content: mine, version: start.version });
    expect(res.status).toBe(409);
    expect(res.headers.get('etag')).toBe(`"${start.version + 1}"`);
    const body = await json<{
      errors: { title: string }[];
      meta: { current: SiteDocument<'cookies-consent'>; changes: SiteDocumentChange[] };
    }>(res);
    expect(body.errors[0]!.title).toBe(M.errors.stale.replace('{{version}}', String(start.version + 1)));
    expect(body.meta.current.content.popup.accept).toBe('Fine');
    const removed = body.meta.changes
      .filter((c) => c.removed)
      .map((c) => c.value)
      .join('');
    const added = body.meta.changes
      .filter((c) => c.added)
      .map((c) => c.value)
      .join('');
    expect(removed).toContain('dismiss: No thanks');
    expect(removed).toContain('accept: OK');
    expect(added).toContain('accept: Fine');
    // Only what differs: the database's own order of members is not a change.
    expect(
      removed
        .trim()
        .split('\n')
        .map((l) => l.trim()),
    ).toEqual(['accept: OK', 'dismiss: No thanks']);
    expect(
      added
        .trim()
        .split('\n')
        .map((l) => l.trim()),
    ).toEqual(['accept: Fine', 'dismiss: Decline']);
    expect((await read('cookies-consent')).content.popup).toMatchObject({
      accept: 'Fine',
      dismiss: 'Decline',
    });
    // The If-Match header names the version as well; without either the save is refused.
    const withHeader = await editor.request('/admin-api/site/cookies-consent', {
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        'x-csrf-token': await (await editor.get('/session/token')).text(),
        'if-match': `"${start.version + 1}"`,
      },
      body: JSON.stringify({ content: mine }),
    });
    expect(withHeader.status, await withHeader.clone().text()).toBe(200);
    expect((await save('cookies-consent', { content: mine })).status).toBe(428);
  });

  it('shows every problem of an invalid document with where it is, and saves nothing', async () => {
    const start = await read('block-layout');
    const broken = {
      ...start.content,
      footer: [{ title: '', links: [{ title: 'x' }] }],
      carousel: [{ key: 'k', image_url: '/i.svg', visibleFor: -1 }],
    };
    const res = await save('block-layout', { content: broken, version: start.version });
    expect(res.status).toBe(422);
    const body = await json<{ errors: { title: string; detail: string; source?: { pointer: string } }[] }>(
      res,
    );
    const pointers = body.errors.map((e) => e.source?.pointer);
    expect(pointers).toEqual(
      expect.arrayContaining([
        '/content/footer/0/title',
        '/content/footer/0/links/0/url',
        '/content/carousel/0/visibleFor',
      ]),
    );
    expect(body.errors[0]!.title).toContain('footer.0.title');
    expect((await read('block-layout')).version).toBe(start.version);
    expect((await save('unknown-doc', { content: {}, version: 1 })).status).toBe(404);
    expect(
      (await save('block-layout', { content: start.content, version: start.version, extra: 1 })).status,
    ).toBe(400);
  });

  it('restores a revision as a new save', async () => {
    const revisions = (
      await json<{ data: SiteRevision[] }>(await editor.get('/admin-api/site/cookies-consent/revisions'))
    ).data;
    const oldest = revisions.at(-1)!;
    const shown = await json<{ data: { content: CookiesConsent; changes: SiteDocumentChange[] } }>(
      await editor.get(`/admin-api/site/cookies-consent/revisions/${oldest.version}`),
    );
    expect(shown.data.content.popup.accept).toBe('Fine');
    const current = await read('cookies-consent');
    const res = await editor.send(
      'POST',
      `/admin-api/site/cookies-consent/revisions/${oldest.version}/restore`,
      { version: current.version },
      'application/json',
    );
    expect(res.status).toBe(200);
    const restored = (await json<{ data: SiteDocument<'cookies-consent'> }>(res)).data;
    expect(restored.version).toBe(current.version + 1);
    expect(restored.content.popup).toMatchObject({ accept: 'Fine', dismiss: 'Decline' });
    const consent = await json<CookiesConsent>(
      await new TestClient(t.baseUrl).get('/phpsdk/cookies-consent'),
    );
    expect(consent.popup.dismiss).toBe('Decline');
    expect((await editor.get('/admin-api/site/cookies-consent/revisions/999')).status).toBe(404);
  });

  it('is refused to the other provider roles, to developers and to visitors, changing nothing', async () => {
    const before = await read('block-layout');
    const others = ['api_manager', 'support_agent', 'go_live_reviewer'] as const;
    for (const role of others) {
      const client = await signedInUser(t, `site.${role}@example.com`, { roles: [role] });
      expect((await client.get('/admin-api/site/block-layout')).status, role).toBe(403);
      expect(
        (await save('block-layout', { content: before.content, version: before.version }, client)).status,
      ).toBe(403);
    }
    const developer = await signedInUser(t, 'site.developer@example.com');
    expect(
      (await save('block-layout', { content: before.content, version: before.version }, developer)).status,
    ).toBe(403);
    expect((await new TestClient(t.baseUrl).get('/admin-api/site/block-layout')).status).toBe(401);
    expect((await read('block-layout')).version).toBe(before.version);
  });

  it('the import keeps what the console saved; export then import into a fresh database is a round trip', async () => {
    const saved = await read('block-layout');
    expect(saved.editedAt).not.toBeNull();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-site-export-'));
    dirs.push(dir);
    fs.cpSync(REPO_CONTENT, dir, { recursive: true });
    // The repository's files are older than the console's saves: the next import keeps the console's.
    await siteImporter.run({
      db: t.app.db,
      contentDir: dir,
      log: t.app.log,
      read: (file) => fs.readFileSync(path.join(dir, file), 'utf8'),
    });
    expect((await read('block-layout')).content.footer.map((f) => f.title)).toContain('Partners');
    expect((await read('block-layout')).version).toBe(saved.version);
    expect(await exportSiteContent(t.app.db, dir)).toEqual([
      'site/block-layout.yaml',
      'site/cookies-consent.yaml',
    ]);
    expect(fs.readFileSync(path.join(dir, 'site/block-layout.yaml'), 'utf8')).toContain('title: Partners');
    const fresh = await startTestApp({ CONTENT_DIR: dir });
    try {
      const content = async (app: TestApp, key: string) =>
        (
          await app.app.db
            .selectFrom('site_content')
            .select('data')
            .where('key', '=', key)
            .executeTakeFirstOrThrow()
        ).data;
      expect(await content(fresh, 'block-layout')).toEqual(await content(t, 'block-layout'));
      expect(await content(fresh, 'cookies-consent')).toEqual(await content(t, 'cookies-consent'));
    } finally {
      await fresh.close();
    }
  });
});
