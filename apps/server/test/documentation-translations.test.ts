import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OperationIndex } from '@portico/contracts/catalog';
import { en } from '@portico/contracts/messages';
import { afterAll, describe, expect, it } from 'vitest';
import { importDocumentationTranslations } from '../src/modules/catalog/documentation-translations.ts';
import { catalogDb } from '../src/modules/catalog/tables.ts';
import { auditActions, consoleFixture, dataOf, deleteAs, json } from './console-fixtures.ts';
import type { TranslationMarker as Marker } from '../src/lib/translations.ts';

/**
 * A documentation's translations (issue 30, decision 063): its title, `info.description` and tags'
 * descriptions, written in the console by the API managers (and by the demo content's import),
 * read in the reader's language by the documentation JSON, the operation index, the page's first
 * screen and its Markdown, each marked; English stays as it was.
 */

interface DocResource {
  id: string;
  attributes: { title: string; alias: string };
  meta?: { translation?: Marker };
}
type Index = OperationIndex & { translation?: Marker };
interface ErrorDoc {
  errors: { status: string; title: string; source?: { pointer?: string } }[];
}

// The server's HTML for the pages: a web app's shell, enough for the first screen.
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-doc-translations-'));
fs.mkdirSync(path.join(dist, 'assets'));
fs.writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><html lang="en"><head><title>Developers Portal</title></head><body><div id="root"></div></body></html>',
);
fs.writeFileSync(path.join(dist, 'route-chunks.json'), JSON.stringify({ '*': [] }));
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

const f = consoleFixture('doc-translations', { WEB_DIST: dist });
const BASE = '/admin-api/catalog/documentations';

const put = async (
  actor: Parameters<typeof f.as>[0],
  id: string,
  fields: Record<string, unknown>,
  langcode = 'de',
) =>
  (await f.as(actor)).send('PUT', `${BASE}/${id}/translations/${langcode}`, { fields }, 'application/json');

async function index(alias: string, query = ''): Promise<Index> {
  const res = await f.visitor().get(`/api/apidocs/${alias}/index${query}`);
  expect(res.status).toBe(200);
  return json<Index>(res);
}

async function documentation(alias: string, query = ''): Promise<DocResource> {
  const res = await f.visitor().get(`/jsonapi/node/api_documentation/${alias}${query}`);
  expect(res.status).toBe(200);
  return (await json<{ data: DocResource }>(res)).data;
}

const tag = (i: Index, name: string) => i.tags.find((t) => t.name === name)?.description;

describe('documentation translations', () => {
  it('imports the demo content in German: title, description and tags, marked', async () => {
    const german = await index('accounts-v1', '?langcode=de');
    expect(german.translation).toEqual({ langcode: 'de', shown: 'de', fallback: false });
    expect(german.title).toBe('Konten-API');
    expect(german.description).toContain('Kontoinformationsdienst der PSD2');
    expect(tag(german, 'Transactions')).toBe('Gebuchte und *vorgemerkte* Umsätze eines Kontos.');
    const doc = await documentation('accounts-v1', '?langcode=de');
    expect(doc.attributes.title).toBe('Konten-API');
    expect(doc.meta?.translation).toEqual({ langcode: 'de', shown: 'de', fallback: false });

    // The products' lists of their documentations (the product page) too.
    const withProducts = await json<{
      data: { relationships: { field_products: { data: { id: string }[] } } };
    }>(await f.visitor().get('/jsonapi/node/api_documentation/accounts-v1'));
    const productId = withProducts.data.relationships.field_products.data[0]!.id;
    const product = await json<{ included?: DocResource[] }>(
      await f.visitor().get(`/jsonapi/node/api_product/${productId}?include=field_endpoints&langcode=de`),
    );
    const included = product.included?.find((d) => d.attributes.alias === 'accounts-v1');
    expect(included?.attributes.title).toBe('Konten-API');

    // English as it was: no marker on the index, the document's own texts.
    const english = await index('accounts-v1');
    expect(english.translation).toBeUndefined();
    expect(english.description).toContain('account information service of PSD2');
    expect(tag(english, 'Transactions')).toBe('Booked and *pending* transactions of an account.');
    expect((await documentation('accounts-v1')).attributes.title).toBe('Accounts API');

    // A documentation without a translation: English, marked as the fallback.
    const fallback = await index('accounts-v0', '?langcode=de');
    expect(fallback.translation).toEqual({ langcode: 'de', shown: 'en', fallback: true });
    expect((await documentation('accounts-v0', '?langcode=de')).meta?.translation?.fallback).toBe(true);
  });

  it('lets API managers translate a documentation, refusing developers and content editors', async () => {
    const fields = {
      title: 'Zahlungen',
      description: 'Zahlungen **auslösen**.<script>alert(1)</script>',
      tags: { Payments: 'Zahlungen und ihr *Status*.' },
    };
    expect((await put('developer', 'payments-v1', fields)).status).toBe(403);
    expect((await put('content_editor', 'payments-v1', fields)).status).toBe(403);
    expect(
      (await f.visitor().send('PUT', `${BASE}/payments-v1/translations/de`, { fields }, 'application/json'))
        .status,
    ).toBe(401);

    const saved = await dataOf<{ fields: Record<string, unknown> }>(
      await put('api_manager', 'payments-v1', fields),
    );
    expect(saved.fields.title).toBe('Zahlungen');
    expect(saved.fields.tags).toEqual({ Payments: 'Zahlungen und ihr *Status*.' });
    expect(saved.fields.descriptionHtml).toContain('<strong>auslösen</strong>');
    expect(saved.fields.descriptionHtml).not.toContain('<script');
    expect((saved.fields.tagsHtml as Record<string, string>).Payments).toContain('<em>Status</em>');

    const listed = await dataOf<{ fields: Record<string, unknown> }[]>(
      await (await f.as('api_manager')).get(`${BASE}/payments-v1/translations`),
    );
    expect(listed[0]?.fields.tags).toEqual({ Payments: 'Zahlungen und ihr *Status*.' });

    const german = await index('payments-v1', '?langcode=de');
    expect(german.title).toBe('Zahlungen');
    expect(german.description).toBe(fields.description);
    expect(tag(german, 'Payments')).toBe('Zahlungen und ihr *Status*.');
    // A tag the translation leaves out shows the document's own description.
    expect(tag(german, 'Standing orders')).toBe('Recurring payments.');
    const list = await json<{ data: DocResource[] }>(
      await f.visitor().get('/jsonapi/node/api_documentation?langcode=de'),
    );
    expect(list.data.find((d) => d.attributes.alias === 'payments-v1')?.attributes.title).toBe('Zahlungen');
    expect((await documentation('payments-v1')).attributes.title).toBe('Payments API');

    const doc = await documentation('payments-v1');
    expect(await auditActions(f.t, 'api_documentation', 'payments-v1')).toContain(
      'api_documentation.translated',
    );
    expect(doc.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a tag the document has not, naming it, and an unknown language', async () => {
    const res = await put('api_manager', 'payments-v1', {
      title: 'Zahlungen',
      tags: { Payments: 'Zahlungen.', Refunds: 'Erstattungen.' },
    });
    expect(res.status).toBe(422);
    const body = await json<ErrorDoc>(res);
    expect(body.errors[0]!.title).toBe(en.console.apis.errors.unknownTag.replace('{{name}}', 'Refunds'));
    expect(body.errors[0]!.source?.pointer).toBe('/fields/tags/Refunds');
    expect((await put('api_manager', 'payments-v1', { title: 'X' }, 'xx')).status).toBe(400);
    expect((await f.visitor().get('/api/apidocs/payments-v1/index?langcode=xx')).status).toBe(400);
  });

  it('writes the first screen and the Markdown in German, and refreshes them with the translation', async () => {
    // Written in German (plugins/web-app.ts writes it for English pages only, for now).
    const screen = await f.t.app.documentationFirstScreen(
      '/documentation/accounts-v1',
      'accounts-v1',
      '',
      'de',
    );
    const html = `${screen!.html}<title>${screen!.title}</title>`;
    expect(html).toContain('<h1>Dokumentation: Konten-API</h1>');
    expect(html).toContain('Kontoinformationsdienst der PSD2');
    expect(html).toContain('API-Referenz');
    expect(html).toContain('<a href="/de/apiProducts">Produkte</a>');
    expect(html).toContain('<title>Dokumentation: Konten-API');
    // The page's data, preloaded in its language.
    const page = await (await f.visitor().get('/de/documentation/accounts-v1')).text();
    expect(page).toContain('href="/api/apidocs/accounts-v1/index?langcode=de"');
    // The German page is served with its German first screen, named as the app names it.
    expect(page).toContain('<h1>Dokumentation: Konten-API</h1>');
    expect(page).toContain('<title>Dokumentation: Konten-API | Entwicklerportal</title>');
    expect(page).toContain('<html lang="de"');
    const english = await (await f.visitor().get('/documentation/accounts-v1')).text();
    expect(english).toContain('<h1>Accounts API Documentation</h1>');
    expect(english).not.toContain('Konten-API');

    const md = await f.visitor().get('/de/documentation/accounts-v1.md');
    expect(md.status).toBe(200);
    expect(md.headers.get('content-language')).toBe('de');
    const text = await md.text();
    expect(text).toContain('Konten-API');
    expect(text).toContain('Kontoinformationsdienst der PSD2');
    const byQuery = await f.visitor().get('/documentation/accounts-v1.md?langcode=de', {
      accept: 'text/markdown',
    });
    expect(await byQuery.text()).toBe(text);
    const mdEnglish = await f.visitor().get('/documentation/accounts-v1.md');
    expect(mdEnglish.headers.get('content-language')).toBeNull();
    expect(await mdEnglish.text()).not.toContain('Konten-API');
    const untranslated = await f.visitor().get('/de/documentation/accounts-v0.md');
    expect(untranslated.headers.get('content-language')).toBe('en');

    // A new translation shows at once: the cached answers go with the translations' version.
    const before = await index('fx-rates-v2', '?langcode=de');
    expect(before.title).toBe('Devisenkurs-API');
    expect((await put('api_manager', 'fx-rates-v2', { title: 'Wechselkurse' })).status).toBe(200);
    expect((await index('fx-rates-v2', '?langcode=de')).title).toBe('Wechselkurse');
    expect((await documentation('fx-rates-v2', '?langcode=de')).attributes.title).toBe('Wechselkurse');
    expect(await (await f.visitor().get('/de/documentation/fx-rates-v2.md')).text()).toContain(
      'Wechselkurse',
    );
    const screen2 = await f.t.app.documentationFirstScreen(
      '/documentation/fx-rates-v2',
      'fx-rates-v2',
      '',
      'de',
    );
    expect(screen2!.html).toContain('<h1>Dokumentation: Wechselkurse</h1>');
  });

  it("keeps the console's translation when the content is imported again, and deletes on request", async () => {
    const db = f.t.app.db;
    const doc = await catalogDb(db)
      .selectFrom('api_documentations')
      .select(['id'])
      .where('alias', '=', 'payments-v1')
      .executeTakeFirstOrThrow();
    expect((await put('api_manager', 'payments-v1', { title: 'Zahlungen' })).status).toBe(200);
    await importDocumentationTranslations(db, doc.id, { de: { title: 'Zahlungs-API' } });
    expect((await index('payments-v1', '?langcode=de')).title).toBe('Zahlungen');

    const manager = await f.as('api_manager');
    expect((await deleteAs(manager, `${BASE}/payments-v1/translations/de`)).status).toBe(204);
    expect((await index('payments-v1', '?langcode=de')).translation?.fallback).toBe(true);
    // Now the content's translation is written again; a language the file drops goes.
    await importDocumentationTranslations(db, doc.id, { de: { title: 'Zahlungs-API' } });
    expect((await index('payments-v1', '?langcode=de')).title).toBe('Zahlungs-API');
    await expect(
      importDocumentationTranslations(db, doc.id, { de: { title: 'Zahlungs-API', tags: { Nope: 'x' } } }),
    ).rejects.toThrow(/payments-v1.*Nope/);
    await importDocumentationTranslations(db, doc.id, {});
    expect((await index('payments-v1', '?langcode=de')).translation?.fallback).toBe(true);
  });
});
