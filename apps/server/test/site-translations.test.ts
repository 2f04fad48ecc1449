import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { BlockLayout, CookiesConsent } from '@portico/contracts/site';
import type { QuickstartStory } from '@portico/contracts/quickstart';
import { applyOverlay, overlayLeaves } from '../src/lib/translation-overlay.ts';
import { exportStories } from '../src/modules/quickstart/export.ts';
import { exportSiteContent } from '../src/modules/site/export.ts';
import { siteImporter } from '../src/modules/site/importer.ts';
import { SITE_OVERLAYS } from '../src/modules/site/translations.ts';
import { auditActions, consoleFixture, dataOf, deleteAs, json } from './console-fixtures.ts';
import type { TranslationMarker as Marker } from '../src/lib/translations.ts';

/**
 * Translations of the site's own documents and the Quick Start stories (issue 30, decision 064):
 * an overlay of JSON pointers over the live English document, written by editors in the console,
 * read by the public routes with `langcode`, imported from and exported to the content files.
 */

type Layout = BlockLayout & { translation: Marker };
type Consent = CookiesConsent & { translation: Marker };
type Story = QuickstartStory & { translation: Marker };
interface Translations {
  data: { langcode: string; fields: Record<string, string>; updatedBy: number | null }[];
  meta: { languages: string[]; fields: string[]; sources?: Record<string, string> };
}

interface ErrorDoc {
  errors: { title: string }[];
}

const f = consoleFixture('site-translations');
const LAYOUT = '/admin-api/site/block-layout/translations';
const FIRST_STORY = '3f0c6a52-8d1e-4c7b-9a37-2f4b1e6d9c01';
const STORY = `/admin-api/content/quickstart/${FIRST_STORY}/translations`;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const layoutIn = async (langcode?: string) => {
  const res = await f.visitor().get(`/block-layout?_format=json${langcode ? `&langcode=${langcode}` : ''}`);
  expect(res.status).toBe(200);
  return json<Layout>(res);
};
const put = async (actor: Parameters<typeof f.as>[0], url: string, fields: Record<string, string>) =>
  (await f.as(actor)).send('PUT', url, { fields }, 'application/json');

describe('site and Quick Start translations', () => {
  it('lists and overlays only the translatable leaves; a stale pointer is ignored', () => {
    const doc = {
      footer: [{ title: 'Legal', links: [{ title: 'Terms', url: '/terms' }] }],
      bottomBanners: [{ title: 'Go', description: '<p>Now</p>', image_url: '/a.svg' }],
    };
    const kind = SITE_OVERLAYS['block-layout'];
    expect(overlayLeaves(doc, kind).map((l) => l.pointer)).toEqual([
      '/footer/0/title',
      '/footer/0/links/0/title',
      '/bottomBanners/0/title',
      '/bottomBanners/0/description',
    ]);
    const shown = applyOverlay(
      doc,
      {
        '/footer/0/links/0/title': 'Nutzungsbedingungen',
        '/footer/0/links/0/url': '/agb', // never a URL
        '/footer/3/title': 'Weg', // gone
        '/footer/0/links': 'Form geändert', // no longer a string
        '/bottomBanners/0/description': '<p>Jetzt</p><script>x()</script>',
      },
      kind,
    );
    expect(shown.footer[0]!.links[0]).toEqual({ title: 'Nutzungsbedingungen', url: '/terms' });
    expect(shown.footer).toHaveLength(1);
    expect(shown.bottomBanners[0]!.description).toBe('<p>Jetzt</p>');
    expect(doc.footer[0]!.links[0]!.title).toBe('Terms');
  });

  it('imports the demo content’s German texts: the public reads show them with the marker', async () => {
    const en = await layoutIn();
    expect(en.footer[2]!.title).toBe('Legal');
    expect(en.translation).toEqual({ langcode: 'en', shown: 'en', fallback: false });
    const de = await layoutIn('de');
    expect(de.translation).toEqual({ langcode: 'de', shown: 'de', fallback: false });
    expect(de.footer[2]!.title).toBe('Rechtliches');
    expect(de.footer[2]!.links[0]).toMatchObject({ title: 'Datenschutzerklärung', url: '/privacy' });
    expect(de.bottomBanners[0]!.description).toContain('Legen Sie Ihr Entwicklerkonto');
    expect(de.gettingStarted[0]!.link).toMatchObject({ title: 'REGISTRIEREN', url: '/login?screen=signup' });
    expect(de.carousel.map((c) => c.image_url)).toEqual(en.carousel.map((c) => c.image_url));

    const consent = await json<Consent>(await f.visitor().get('/phpsdk/cookies-consent?langcode=de'));
    expect(consent.popup.dismiss).toBe('Ablehnen');
    expect(consent.expiryDays).toBe(365);
    expect(consent.translation.fallback).toBe(false);

    const stories = await json<{ data: Story[] }>(
      await f.visitor().get('/getting_started/stories?langcode=de'),
    );
    const first = stories.data.find((s) => s.uuid === FIRST_STORY)!;
    expect(first.title).toBe('Ihr erster API-Aufruf');
    expect(first.translation).toEqual({ langcode: 'de', shown: 'de', fallback: false });
    expect(first.steps[3]!.target).toBe('[data-operation="listAccounts"] [data-tour="try-out"]');
    expect(first.steps[3]!.content).toContain('Ausprobieren');
    const english = await json<{ data: Story[] }>(await f.visitor().get('/getting_started/stories'));
    expect(english.data.find((s) => s.uuid === FIRST_STORY)!.title).toBe('Make your first API call');

    expect((await f.visitor().get('/block-layout?langcode=fr')).status).toBe(400);
  });

  it('lets content editors overlay a document, refusing developers; the site shows it at once', async () => {
    const fields = { '/footer/2/title': 'Impressum & Recht' };
    expect((await put('developer', `${LAYOUT}/de`, fields)).status).toBe(403);
    expect((await (await f.as('developer')).get(LAYOUT)).status).toBe(403);
    expect((await f.visitor().send('PUT', `${LAYOUT}/de`, { fields }, 'application/json')).status).toBe(401);
    // Only the live document's text leaves: never a URL, nor a pointer it does not have.
    expect((await put('content_editor', `${LAYOUT}/de`, { '/footer/2/links/0/url': '/x' })).status).toBe(400);
    expect((await put('content_editor', `${LAYOUT}/de`, { '/footer/9/title': 'x' })).status).toBe(400);
    expect((await put('content_editor', `${LAYOUT}/en`, fields)).status).toBe(400);
    // A translation with no text at all is none: refused (a deletion removes one).
    expect((await put('content_editor', `${LAYOUT}/de`, { '/footer/2/title': ' ' })).status).toBe(400);
    // Both refusals in the editor's language (decision 058; errors.json `server.translation*`).
    const german = await f.as('content_editor');
    german.headers['accept-language'] = 'de-DE,de;q=0.9';
    try {
      const sendDe = async (langcode: string, body: Record<string, string>) =>
        (
          await json<ErrorDoc>(
            await german.send('PUT', `${LAYOUT}/${langcode}`, { fields: body }, 'application/json'),
          )
        ).errors[0]!.title;
      expect(await sendDe('de', { '/footer/2/title': ' ' })).toBe(
        'Eine Übersetzung braucht mindestens einen übersetzten Text.',
      );
      expect(await sendDe('en', fields)).toBe(
        'Die Sprache einer Übersetzung muss eine der folgenden sein: de (der Text der Standardsprache ist der des Eintrags selbst).',
      );
    } finally {
      delete german.headers['accept-language'];
    }

    const editor = await f.as('content_editor');
    const listed = await json<Translations>(await editor.get(LAYOUT));
    expect(listed.meta.sources?.['/footer/2/title']).toBe('Legal');
    expect(listed.meta.fields).not.toContain('/footer/2/links/0/url');
    expect(listed.data[0]!.updatedBy).toBeNull(); // as the import wrote it

    // Read (and cached) before the save: the save makes the cached answer stale.
    expect((await layoutIn('de')).footer[2]!.title).toBe('Rechtliches');
    const saved = await dataOf<{ fields: Record<string, string> }>(
      await put('content_editor', `${LAYOUT}/de`, {
        ...fields,
        '/bottomBanners/0/description': '<p>Hallo</p><img src=x onerror=alert(1)>',
      }),
    );
    expect(saved.fields['/bottomBanners/0/description']).toBe('<p>Hallo</p><img src="x" />');
    const de = await layoutIn('de');
    expect(de.footer[2]!.title).toBe('Impressum & Recht');
    // Per string, the English shows where the overlay has no text.
    expect(de.footer[1]!.title).toBe('Support');
    expect(de.footer[0]!.links[0]!.title).toBe('Getting started');
    expect((await layoutIn()).footer[2]!.title).toBe('Legal');
    expect(await auditActions(f.t, 'site_content', 'block-layout')).toContain('site_content.translated');

    // The import keeps the console's translation (the file's German is older).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-site-translations-'));
    dirs.push(dir);
    fs.cpSync(path.resolve(import.meta.dirname, '../../../content'), dir, { recursive: true });
    const read = (file: string) => fs.readFileSync(path.join(dir, file), 'utf8');
    await siteImporter.run({ db: f.t.app.db, contentDir: dir, log: f.t.app.log, read });
    expect((await layoutIn('de')).footer[2]!.title).toBe('Impressum & Recht');
    // The export writes it back as the file's block.
    await exportSiteContent(f.t.app.db, dir);
    expect(read('site/block-layout.yaml')).toContain('/footer/2/title: Impressum & Recht');

    // Deleted: the document falls back to English, marked.
    const deleted = await deleteAs(editor, `${LAYOUT}/de`);
    expect(deleted.status).toBe(204);
    const fallback = await layoutIn('de');
    expect(fallback.footer[2]!.title).toBe('Legal');
    expect(fallback.translation).toEqual({ langcode: 'de', shown: 'en', fallback: true });
    expect(await auditActions(f.t, 'site_content', 'block-layout')).toContain(
      'site_content.translation_deleted',
    );
  });

  it('ignores a stored pointer whose English changed shape; the story’s translation follows the story', async () => {
    const editor = await f.as('content_editor');
    expect(
      (
        await put('content_editor', '/admin-api/site/cookies-consent/translations/de', {
          '/popup/accept': 'Gut',
        })
      ).status,
    ).toBe(200);
    // The stored overlay names a leaf the document then loses (an older document's pointer).
    const stale = JSON.stringify({ '/popup/accept': 'Gut', '/popup/gone/0': 'Alt', '/expiryDays': '1' });
    await sql`update content_translations set fields = ${stale}::jsonb
      where entity_type = 'site_content' and entity_id = 'cookies-consent'`.execute(f.t.app.db);
    const consent = await json<Consent>(await f.visitor().get('/phpsdk/cookies-consent?langcode=de'));
    expect(consent.popup.accept).toBe('Gut');
    expect(consent.popup).not.toHaveProperty('gone');
    expect(consent.expiryDays).toBe(365);

    expect((await put('developer', `${STORY}/de`, { '/title': 'x' })).status).toBe(403);
    expect((await put('content_editor', `${STORY}/de`, { '/steps/0/target': 'main' })).status).toBe(400);
    await dataOf(await put('content_editor', `${STORY}/de`, { '/title': 'Los geht’s' }));
    const stories = await json<{ data: Story[] }>(
      await f.visitor().get('/getting_started/stories?langcode=de'),
    );
    const first = stories.data.find((s) => s.uuid === FIRST_STORY)!;
    expect(first.title).toBe('Los geht’s');
    // The console's overlay replaced the file's: the steps show in English now.
    expect(first.steps[0]!.content).toMatch(/^Welcome/);
    expect(await auditActions(f.t, 'quickstart_story', FIRST_STORY)).toContain('quickstart_story.translated');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-story-translations-'));
    dirs.push(dir);
    await exportStories(f.t.app.db, dir);
    expect(fs.readFileSync(path.join(dir, 'quickstart/stories.yaml'), 'utf8')).toContain(
      '/title: Los geht’s',
    );
    expect((await editor.get(STORY)).status).toBe(200);
  });
  it("a story's translations follow its texts when the English steps are reordered or one is deleted", async () => {
    const editor = await f.as('content_editor');
    const BASE = '/admin-api/content/quickstart';
    const step = (content: string) => ({ target: '#main', content });
    type Edited = { id: string; title: string };
    const created = await editor.send(
      'POST',
      BASE,
      { title: 'Moving tour', steps: [step('One.'), step('Two.'), step('Three.')] },
      'application/json',
    );
    expect(created.status).toBe(201);
    const story = (await json<{ data: Edited }>(created)).data;
    const url = `${BASE}/${story.id}/translations`;
    await dataOf(
      await put('content_editor', `${url}/de`, {
        '/title': 'Wandernde Tour',
        '/steps/0/content': 'Eins.',
        '/steps/1/content': 'Zwei.',
        '/steps/2/content': 'Drei.',
      }),
    );
    const save = async (steps: unknown[], version: number) => {
      const res = await editor.send(
        'PATCH',
        `${BASE}/${story.id}`,
        { title: story.title, steps, state: 'published', publishAt: null, version },
        'application/json',
      );
      expect(res.status, await res.clone().text()).toBe(200);
    };
    const german = async () => {
      const list = await json<{ data: Story[] }>(
        await f.visitor().get('/getting_started/stories?langcode=de'),
      );
      return list.data.find((s) => s.uuid === story.id)!.steps.map((s) => s.content);
    };
    await save([step('One.'), step('Two.'), step('Three.')], 1);
    expect(await german()).toEqual(['Eins.', 'Zwei.', 'Drei.']);

    // Reordered: each German text stays with its English, not with its position.
    await save([step('Three.'), step('One.'), step('Two.')], 2);
    expect(await german()).toEqual(['Drei.', 'Eins.', 'Zwei.']);
    // The console lists them where they are now, beside their English.
    const listed = await json<Translations>(await editor.get(url));
    expect(listed.data[0]!.fields).toMatchObject({
      '/steps/0/content': 'Drei.',
      '/steps/1/content': 'Eins.',
      '/steps/2/content': 'Zwei.',
    });
    expect(listed.meta.sources?.['/steps/0/content']).toBe('Three.');
    // A step deleted: its translation goes with it; a new step shows its English.
    await save([step('Three.'), step('New.'), step('Two.')], 3);
    expect(await german()).toEqual(['Drei.', 'New.', 'Zwei.']);
    // The export writes the pointers of the document it writes.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-story-moves-'));
    dirs.push(dir);
    await exportStories(f.t.app.db, dir);
    const file = fs.readFileSync(path.join(dir, 'quickstart/stories.yaml'), 'utf8');
    const exported = file.slice(file.indexOf('Moving tour'));
    expect(exported).toMatch(/\/steps\/0\/content: Drei\./);
    expect(exported).toMatch(/\/steps\/2\/content: Zwei\./);
    expect(exported).not.toContain('Eins.');
  });
});
