import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LOCALE_COOKIE } from '@portico/contracts/locale-path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './http-client.ts';
import { body, signedInUser } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * The portal in a second language (issue 30, decision 057): the language in public pages' URLs
 * (`/de/...`), the HTML shell's `lang` and `hreflang` alternates, the first visit's redirect by
 * Accept-Language, and the account's language.
 */
describe('languages', () => {
  let t: TestApp;
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-dist-'));
  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html lang="en"><head><title>Developers Portal</title></head><body><div id="root"></div></body></html>',
    );
    fs.writeFileSync(
      path.join(dist, 'route-chunks.json'),
      JSON.stringify({
        '/apiProducts': ['/assets/products-page-p1.js'],
        '/404': ['/assets/not-found-n1.js'],
      }),
    );
    t = await startTestApp({ WEB_DIST: dist });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const get = (route: string, headers: Record<string, string> = {}) =>
    fetch(`${t.baseUrl}${route}`, { headers, redirect: 'manual' });

  function alternates(html: string): Record<string, string> {
    return Object.fromEntries(
      [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)].map((m) => [
        m[1],
        new URL(m[2]!).pathname + new URL(m[2]!).search,
      ]),
    );
  }

  it('serves /de/ pages as German, with the same route hints, and every language as an alternate', async () => {
    const res = await get('/de/apiProducts?page=2');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('href="/assets/products-page-p1.js"');
    expect(alternates(html)).toEqual({
      en: '/apiProducts?page=2',
      de: '/de/apiProducts?page=2',
      'x-default': '/apiProducts?page=2',
    });
    const home = await (await get('/de/')).text();
    expect(home).toContain('<html lang="de">');
    expect(alternates(home)).toEqual({ en: '/', de: '/de/', 'x-default': '/' });
    expect((await get('/de')).status).toBe(200);
  });

  it('keeps English pages where they are, in English, with the alternates', async () => {
    const res = await get('/apiProducts');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<html lang="en">');
    expect(alternates(html).de).toBe('/de/apiProducts');
  });

  it('answers 404 under /de/ for a page that does not exist, in German', async () => {
    const res = await get('/de/no-such-page');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('<html lang="de">');
    // Not a language: an unknown prefix is a path like any other.
    expect((await get('/fr/apiProducts')).status).toBe(404);
  });

  it('sends a first visit whose browser prefers German to /de/, once', async () => {
    const browser = new TestClient(t.baseUrl);
    const first = await browser.get('/', { 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' });
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe('/de/');
    expect(first.headers.get('vary')).toMatch(/Accept-Language/i);
    expect(browser.cookies.get(LOCALE_COOKIE)).toBe('de');
    // A deeper page keeps its path and query.
    const deep = await get('/organizations?x=1', { 'accept-language': 'de' });
    expect(deep.headers.get('location')).toBe('/de/organizations?x=1');
    // The cookie decides from then on: English once chosen, whatever the browser says.
    browser.cookies.set(LOCALE_COOKIE, 'en');
    const english = await browser.get('/', { 'accept-language': 'de' });
    expect(english.status).toBe(200);
    expect(await english.text()).toContain('<html lang="en">');
    browser.cookies.set(LOCALE_COOKIE, 'de');
    const chosen = await browser.get('/apiProducts', { 'accept-language': 'en' });
    expect(chosen.status).toBe(302);
    expect(chosen.headers.get('location')).toBe('/de/apiProducts');
  });

  it('leaves English browsers, the API and unknown pages alone', async () => {
    expect((await get('/', { 'accept-language': 'en-US,en;q=0.9,de;q=0.5' })).status).toBe(200);
    expect((await get('/', { 'accept-language': 'fr-FR' })).status).toBe(200);
    expect((await get('/')).status).toBe(200);
    expect((await get('/no-such-page', { 'accept-language': 'de' })).status).toBe(404);
    const api = await get('/jsonapi/node/faq', { 'accept-language': 'de', cookie: `${LOCALE_COOKIE}=de` });
    expect(api.status).not.toBe(302);
  });

  it("keeps the account's language, one of the portal's", async () => {
    const client = await signedInUser(t, 'lena.sprache@example.com');
    const me = await body<{ uuid: string; uid: number; preferredLangcode: string | null }>(
      await client.get('/session/user'),
    );
    expect(me.preferredLangcode).toBeNull();
    const patch = (value: unknown) =>
      client.send('PATCH', `/jsonapi/user/user/${me.uuid}`, {
        data: { type: 'user--user', id: me.uuid, attributes: { preferred_langcode: value } },
      });
    const saved = await patch('de');
    expect(saved.status).toBe(200);
    expect(
      (await body<{ data: { attributes: { preferred_langcode: string } } }>(saved)).data.attributes,
    ).toMatchObject({
      preferred_langcode: 'de',
    });
    const read = await body<{ data: { attributes: { preferred_langcode: string } }[] }>(
      await client.get(`/jsonapi/user/user?filter[drupal_internal__uid]=${me.uid}`),
    );
    expect(read.data[0]?.attributes.preferred_langcode).toBe('de');
    expect(
      (await body<{ preferredLangcode: string }>(await client.get('/session/user'))).preferredLangcode,
    ).toBe('de');
    // Not a language of the portal: refused, nothing written.
    for (const bad of ['fr', 'DE', '', 42]) {
      const refused = await patch(bad);
      expect(refused.status, String(bad)).toBe(422);
      const error = await body<{ errors: { source?: { pointer?: string } }[] }>(refused);
      expect(error.errors[0]?.source?.pointer).toBe('/data/attributes/preferred_langcode');
    }
    const row = await t.app.db
      .selectFrom('users')
      .select('preferred_langcode')
      .where('uuid', '=', me.uuid)
      .executeTakeFirstOrThrow();
    expect(row.preferred_langcode).toBe('de');
    // Back to no choice of its own.
    expect((await patch(null)).status).toBe(200);
    expect(
      (await body<{ preferredLangcode: string | null }>(await client.get('/session/user'))).preferredLangcode,
    ).toBeNull();
  });

  it("refuses to set another account's language", async () => {
    const other = await signedInUser(t, 'max.fremd@example.com');
    const them = await body<{ uuid: string }>(await other.get('/session/user'));
    const client = await signedInUser(t, 'eva.eigen@example.com');
    const res = await client.send('PATCH', `/jsonapi/user/user/${them.uuid}`, {
      data: { type: 'user--user', id: them.uuid, attributes: { preferred_langcode: 'de' } },
    });
    expect(res.status).toBe(404);
    const anonymous = new TestClient(t.baseUrl);
    const anon = await anonymous.send('PATCH', `/jsonapi/user/user/${them.uuid}`, {
      data: { type: 'user--user', id: them.uuid, attributes: { preferred_langcode: 'de' } },
    });
    expect([401, 403]).toContain(anon.status);
  });
});
