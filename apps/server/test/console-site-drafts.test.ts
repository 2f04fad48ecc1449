import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteDocument, SiteDocumentChange, SiteRevision } from '@portico/contracts/console-site';
import { en } from '@portico/contracts/messages';
import type { BlockLayout, CookiesConsent } from '@portico/contracts/site';
import { exportSiteContent } from '../src/modules/site/export.ts';
import { publishDueSiteContent } from '../src/modules/site/console.ts';
import { TestClient } from './http-client.ts';
import { signedInUser } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Drafts and scheduled publication of the site's texts (issue 27, modules/site/README.md
 * 'Console'): a document keeps one pending version beside the live one; visitors see the live one
 * until it is published by hand or by the versioned-content scheduler, once, as the system.
 */
const M = en.console.site;
const later = () => new Date(Date.now() + 3_600_000).toISOString();

async function json<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

describe('console: site texts drafts and scheduling', () => {
  let t: TestApp;
  let editor: TestClient;
  const visitor = () => new TestClient(t.baseUrl);
  beforeAll(async () => {
    t = await startTestApp();
    editor = await signedInUser(t, 'draft.editor@example.com', { roles: ['content_editor'] });
  });
  afterAll(async () => {
    await t?.close();
  });

  const read = async <K extends 'block-layout' | 'cookies-consent'>(key: K) => {
    const res = await editor.get(`/admin-api/site/${key}`);
    expect(res.status).toBe(200);
    return (await json<{ data: SiteDocument<K> }>(res)).data;
  };
  const save = (key: string, body: unknown, client = editor) =>
    client.send('PUT', `/admin-api/site/${key}`, body, 'application/json');
  const discard = (key: string, version: number, client = editor) =>
    client.send('DELETE', `/admin-api/site/${key}/draft`, { version }, 'application/json');
  const footerTitles = async () =>
    (await json<BlockLayout>(await visitor().get('/block-layout?_format=json'))).footer.map((f) => f.title);
  const popupAccept = async () =>
    (await json<CookiesConsent>(await visitor().get('/phpsdk/cookies-consent'))).popup.accept;
  const revisions = async (key: string) =>
    (await json<{ data: SiteRevision[] }>(await editor.get(`/admin-api/site/${key}/revisions`))).data;
  const audit = (key: string) =>
    t.app.db
      .selectFrom('audit_log')
      .select(['action', 'actor_email', 'actor_id'])
      .where('target_type', '=', 'site_content')
      .where('target_id', '=', key)
      .orderBy('id')
      .execute();
  const withColumn = (layout: BlockLayout, title: string): BlockLayout => ({
    ...layout,
    footer: [
      ...layout.footer,
      { title, links: [{ title: 'Partner program', url: '/partners', external: false }] },
    ],
  });

  it('keeps a draft from visitors until it is published; a stale draft save gets 409 with the difference', async () => {
    const start = await read('block-layout');
    expect(start).toMatchObject({ draft: null, publishAt: null });
    const live = await footerTitles();
    expect(live).toEqual(['Developers', 'Support', 'Legal']);

    const draft = withColumn(start.content, 'Partners draft');
    const res = await save('block-layout', { content: draft, version: start.version, mode: 'draft' });
    expect(res.status, await res.clone().text()).toBe(200);
    const saved = (await json<{ data: SiteDocument<'block-layout'> }>(res)).data;
    expect(saved.version).toBe(start.version + 1);
    expect(saved.content.footer.map((f) => f.title)).toEqual(live);
    expect(saved.draft!.footer.map((f) => f.title)).toEqual([...live, 'Partners draft']);
    expect(saved.publishAt).toBeNull();
    // Visitors still see the live document.
    expect(await footerTitles()).toEqual(live);

    // A draft save from the older version is refused with what differs from the draft saved.
    const mine = withColumn(start.content, 'Mine');
    const stale = await save('block-layout', { content: mine, version: start.version, mode: 'draft' });
    expect(stale.status).toBe(409);
    const body = await json<{
      errors: { title: string }[];
      meta: { current: SiteDocument<'block-layout'>; changes: SiteDocumentChange[] };
    }>(stale);
    expect(body.errors[0]!.title).toBe(M.errors.stale.replace('{{version}}', String(saved.version)));
    expect(body.meta.current.draft!.footer.at(-1)!.title).toBe('Partners draft');
    const added = body.meta.changes
      .filter((c) => c.added)
      .map((c) => c.value)
      .join('');
    const removed = body.meta.changes
      .filter((c) => c.removed)
      .map((c) => c.value)
      .join('');
    expect(added).toContain('title: Partners draft');
    expect(removed).toContain('title: Mine');
    expect((await read('block-layout')).draft!.footer.at(-1)!.title).toBe('Partners draft');

    // Published: visitors see it, the draft is gone.
    const published = await save('block-layout', { content: saved.draft, version: saved.version });
    expect(published.status, await published.clone().text()).toBe(200);
    const after = (await json<{ data: SiteDocument<'block-layout'> }>(published)).data;
    expect(after).toMatchObject({ version: saved.version + 1, draft: null, publishAt: null });
    expect(await footerTitles()).toEqual([...live, 'Partners draft']);

    const revs = await revisions('block-layout');
    expect(revs.slice(0, 2).map((r) => [r.version, r.state])).toEqual([
      [after.version, 'published'],
      [saved.version, 'draft'],
    ]);
    expect((await audit('block-layout')).map((a) => a.action)).toEqual([
      'site_content.draft_saved',
      'site_content.published',
    ]);

    // Back as it was (a publication of the original layout).
    expect((await save('block-layout', { content: start.content, version: after.version })).status).toBe(200);
    expect(await footerTitles()).toEqual(live);
  });

  it('publishes a scheduled document once when its time has come, as the system, and never before', async () => {
    const start = await read('cookies-consent');
    const content: CookiesConsent = { ...start.content, popup: { ...start.content.popup, accept: 'Sure' } };
    for (const publishAt of [null, '2001-01-01T00:00:00Z']) {
      const res = await save('cookies-consent', {
        content,
        version: start.version,
        mode: 'schedule',
        publishAt,
      });
      expect(res.status).toBe(400);
    }
    const res = await save('cookies-consent', {
      content,
      version: start.version,
      mode: 'schedule',
      publishAt: later(),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const scheduled = (await json<{ data: SiteDocument<'cookies-consent'> }>(res)).data;
    expect(scheduled.publishAt).not.toBeNull();
    expect(scheduled.draft!.popup.accept).toBe('Sure');
    expect(await popupAccept()).toBe(start.content.popup.accept);
    // Not due yet: nothing happens.
    expect(await publishDueSiteContent(t.app.db)).toEqual([]);
    expect((await read('cookies-consent')).version).toBe(scheduled.version);

    await sql`update site_content set publish_at = now() - interval '1 second' where key = 'cookies-consent'`.execute(
      t.app.db,
    );
    const runs = await Promise.all([publishDueSiteContent(t.app.db), publishDueSiteContent(t.app.db)]);
    // The background scheduler may have taken it first; never more than once.
    expect(runs.flat().filter((k) => k === 'cookies-consent').length).toBeLessThanOrEqual(1);
    await expect.poll(async () => (await read('cookies-consent')).draft).toBeNull();
    const after = await read('cookies-consent');
    expect(after).toMatchObject({ version: scheduled.version + 1, publishAt: null });
    expect(after.content.popup.accept).toBe('Sure');
    expect(await popupAccept()).toBe('Sure');
    expect(await publishDueSiteContent(t.app.db)).toEqual([]);
    expect((await audit('cookies-consent')).map((a) => [a.action, a.actor_email, a.actor_id])).toEqual([
      ['site_content.scheduled', 'draft.editor@example.com', expect.any(Number)],
      ['site_content.published', null, null],
    ]);
    const revs = await revisions('cookies-consent');
    expect(revs.slice(0, 2).map((r) => [r.version, r.state, r.author])).toEqual([
      [after.version, 'published', null],
      [scheduled.version, 'scheduled', 'draft.editor@example.com'],
    ]);
    // Back as it was.
    expect((await save('cookies-consent', { content: start.content, version: after.version })).status).toBe(
      200,
    );
  });

  it('discards a draft, leaving the live document; export writes the live document', async () => {
    const start = await read('block-layout');
    const res = await save('block-layout', {
      content: withColumn(start.content, 'Discarded'),
      version: start.version,
      mode: 'schedule',
      publishAt: later(),
    });
    expect(res.status).toBe(200);
    const drafted = (await json<{ data: SiteDocument<'block-layout'> }>(res)).data;

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-site-draft-export-'));
    try {
      await exportSiteContent(t.app.db, dir);
      const text = fs.readFileSync(path.join(dir, 'site/block-layout.yaml'), 'utf8');
      expect(text).not.toContain('Discarded');
      expect(text).toContain('title: Legal');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }

    expect((await discard('block-layout', start.version)).status).toBe(409);
    const gone = await discard('block-layout', drafted.version);
    expect(gone.status, await gone.clone().text()).toBe(200);
    const after = (await json<{ data: SiteDocument<'block-layout'> }>(gone)).data;
    expect(after).toMatchObject({ version: drafted.version + 1, draft: null, publishAt: null });
    expect(after.content).toEqual(start.content);
    expect(await footerTitles()).toEqual(start.content.footer.map((f) => f.title));
    // Nothing left to discard.
    const again = await discard('block-layout', after.version);
    expect(again.status).toBe(409);
    expect((await json<{ errors: { title: string }[] }>(again)).errors[0]!.title).toBe(M.errors.noDraft);
    expect((await read('block-layout')).version).toBe(after.version);
    expect((await audit('block-layout')).at(-1)!.action).toBe('site_content.draft_discarded');
    // A revision restored as a draft leaves the live document alone.
    const scheduledRevision = (await revisions('block-layout')).find((r) => r.state === 'scheduled')!;
    const restored = await editor.send(
      'POST',
      `/admin-api/site/block-layout/revisions/${scheduledRevision.version}/restore`,
      { version: after.version, mode: 'draft' },
      'application/json',
    );
    expect(restored.status, await restored.clone().text()).toBe(200);
    const asDraft = (await json<{ data: SiteDocument<'block-layout'> }>(restored)).data;
    expect(asDraft.draft!.footer.at(-1)!.title).toBe('Discarded');
    expect(asDraft.content).toEqual(start.content);
    expect(await footerTitles()).toEqual(start.content.footer.map((f) => f.title));
    expect((await discard('block-layout', asDraft.version)).status).toBe(200);
    // Without a version the discard is refused.
    const unversioned = await editor.send(
      'DELETE',
      '/admin-api/site/block-layout/draft',
      {},
      'application/json',
    );
    expect(unversioned.status).toBe(428);
  });

  it('refuses drafts, schedules and discards to every provider role but content editors, changing nothing', async () => {
    const start = await read('block-layout');
    const pending = await save('block-layout', {
      content: withColumn(start.content, 'Pending'),
      version: start.version,
      mode: 'draft',
    });
    expect(pending.status).toBe(200);
    const before = await read('block-layout');
    const clients: [string, TestClient][] = [];
    for (const role of ['api_manager', 'support_agent', 'go_live_reviewer'] as const)
      clients.push([role, await signedInUser(t, `draft.${role}@example.com`, { roles: [role] })]);
    clients.push(['developer', await signedInUser(t, 'draft.developer@example.com')]);
    for (const [role, client] of clients) {
      const content = withColumn(start.content, role);
      for (const body of [
        { content, version: before.version, mode: 'draft' },
        { content, version: before.version, mode: 'schedule', publishAt: later() },
        { content, version: before.version, mode: 'publish' },
      ])
        expect((await save('block-layout', body, client)).status, role).toBe(403);
      expect((await discard('block-layout', before.version, client)).status, role).toBe(403);
    }
    expect(
      (
        await visitor().send(
          'DELETE',
          '/admin-api/site/block-layout/draft',
          { version: 1 },
          'application/json',
        )
      ).status,
    ).toBe(401);
    expect(await read('block-layout')).toEqual(before);
    expect((await discard('block-layout', before.version)).status).toBe(200);
  });
});
