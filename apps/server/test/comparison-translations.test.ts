import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { exportCatalogProducts } from '../src/modules/catalog/export.ts';
import type { TranslationMarker as Marker } from '../src/lib/translations.ts';
import dePages from '../src/locales/de/pages.json' with { type: 'json' };
import { auditActions, consoleFixture, dataOf, deleteAs, json } from './console-fixtures.ts';

/**
 * A product's comparison table in other languages (issue 30, decision 064): an overlay over the
 * table's view `{ title, columns: [{ title }], rows: [{ title, values }] }`, imported from
 * content/catalog/documentation.yaml, written by API managers in the console, read by the product's
 * JSON:API with `langcode`, exported back to the table's entry.
 */

interface Resource {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  meta?: { translation?: Marker };
}
interface ProductDoc {
  data: Resource;
  included?: Resource[];
}
interface Translations {
  data: { langcode: string; fields: Record<string, string>; updatedBy: number | null }[];
  meta: { languages: string[]; fields: string[]; sources?: Record<string, string> };
}
interface DemoTable {
  key: string;
  title: string;
  rows: { title: string }[];
  translations: { de: Record<string, string> };
}

const f = consoleFixture('comparison-translations');
const BASE = '/admin-api/catalog/comparison-tables';
const CONTENT = path.resolve(import.meta.dirname, '../../../content');
const demo = (
  parse(fs.readFileSync(path.join(CONTENT, 'catalog/documentation.yaml'), 'utf8')) as {
    comparisonTables: DemoTable[];
  }
).comparisonTables.find((t) => t.key === 'account-apis')!;
const GERMAN = demo.translations.de;
const deProducts = dePages.products;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const INCLUDE = 'include=field_comparison_table,field_comparison_table.field_rows';
// As the web app asks for a product page (api-products.ts `useProduct`).
const productsUrl = (langcode?: string) =>
  `/jsonapi/node/api_product/accounts-api-v1?${INCLUDE}${langcode ? `&langcode=${langcode}` : ''}`;
const productsIn = async (langcode?: string) => {
  const res = await f.visitor().get(productsUrl(langcode));
  expect(res.status).toBe(200);
  return res.text();
};
/** The comparison table and its rows (in their order) of an answer. */
const tableOf = (text: string) => {
  const doc = JSON.parse(text) as ProductDoc;
  const table = doc.included!.find((r) => r.type === 'node--comparison_table')!;
  const ids = (table as unknown as { relationships: { field_rows: { data: { id: string }[] } } })
    .relationships.field_rows.data;
  const rows = ids.map((ref) => doc.included!.find((r) => r.id === ref.id)!);
  return { table, rows };
};

const tableId = async () => {
  const list = await json<{ data: { id: string; key: string }[] }>(
    await (await f.as('api_manager')).get(BASE),
  );
  return list.data.find((t) => t.key === 'account-apis')!.id;
};
const put = async (actor: Parameters<typeof f.as>[0], url: string, fields: Record<string, string>) =>
  (await f.as(actor)).send('PUT', url, { fields }, 'application/json');

describe('comparison table translations', () => {
  it('imports the demo table’s German texts: the German product read shows them with the marker', async () => {
    const english = await productsIn();
    const en = tableOf(english);
    expect(en.table.attributes.title).toBe(demo.title);
    expect(en.table.meta).toBeUndefined();
    expect(en.rows[1]!.attributes).toMatchObject({
      title: 'Rate limit',
      field_values: ['100 per hour', '10 per hour', 'Daily files'],
    });

    const de = tableOf(await productsIn('de'));
    expect(de.table.attributes.title).toBe(GERMAN['/title']);
    expect(de.table.meta?.translation).toEqual({ langcode: 'de', shown: 'de', fallback: false });
    // A product's column shows the product's title in German (the product's own translation);
    // a column of its own, its German title.
    const names = de.table.attributes.field_product_names as string[];
    expect(names[2]).toBe(GERMAN['/columns/2/title']);
    // A deprecated product's column says so in German (spec B 3's 'Deprecated API').
    const englishNames = en.table.attributes.field_product_names as string[];
    const productIds = (de.table.attributes.field_product_ids as (string | null)[]).slice(0, 2);
    const germanTitles = await Promise.all(
      productIds.map(async (id, i) => {
        if (englishNames[i] === 'Deprecated API') return deProducts.deprecatedApi;
        const product = await json<{ data: Resource }>(
          await f.visitor().get(`/jsonapi/node/api_product/${id}?langcode=de`),
        );
        expect(product.data.meta?.translation?.fallback).toBe(false);
        return product.data.attributes.title;
      }),
    );
    expect(englishNames.slice(0, 2)).toContain('Deprecated API');
    expect(names.slice(0, 2)).toEqual(germanTitles);
    expect(names.slice(0, 2)).not.toEqual(englishNames.slice(0, 2));
    expect(de.rows[0]!.attributes.title).toBe(GERMAN['/rows/0/title']);
    expect(de.rows[1]!.attributes).toMatchObject({
      title: GERMAN['/rows/1/title'],
      field_values: [GERMAN['/rows/1/values/0'], GERMAN['/rows/1/values/1'], GERMAN['/rows/1/values/2']],
    });
    // Untranslated texts show their English; a yes/no row's values stay '1' and '0'.
    expect(de.rows[2]!.attributes.field_values).toEqual(['OAuth 2', 'OAuth 2', GERMAN['/rows/2/values/2']]);
    expect(de.rows[5]!.attributes).toMatchObject({
      title: GERMAN['/rows/5/title'],
      field_values: ['1', '0', '0'],
    });
    expect(de.rows.map((r) => r.meta)).toEqual(de.rows.map(() => undefined));

    // The table's own read too, as the product's.
    const id = await tableId();
    const own = await json<{ data: Resource; included: Resource[] }>(
      await f.visitor().get(`/jsonapi/node/comparison_table/${id}?include=field_rows&langcode=de`),
    );
    expect(own.data.attributes.title).toBe(GERMAN['/title']);
    expect(own.data.attributes.field_product_names).toEqual(names);
    expect(own.included.find((r) => r.attributes.title === GERMAN['/rows/4/title'])).toBeDefined();
    // Its included products in German, as the product's own read.
    const withProducts = await json<{ included: Resource[] }>(
      await f.visitor().get(`/jsonapi/node/comparison_table/${id}?include=field_products&langcode=de`),
    );
    const live = productIds.filter((_, i) => englishNames[i] !== 'Deprecated API');
    expect(live.length).toBeGreaterThan(0);
    for (const pid of live) {
      const included = withProducts.included.find((r) => r.id === pid)!;
      expect(included.meta?.translation).toEqual({ langcode: 'de', shown: 'de', fallback: false });
      expect(names).toContain(included.attributes.title);
    }
    expect((await f.visitor().get(productsUrl('fr'))).status).toBe(400);
  });

  it('lets API managers translate the table, refusing others; English stays byte for byte', async () => {
    const id = await tableId();
    const url = `${BASE}/${id}/translations`;
    const englishBefore = await productsIn();
    const fields = { '/rows/3/title': 'Datenumfang' };
    expect((await put('content_editor', `${url}/de`, fields)).status).toBe(403);
    expect((await put('developer', `${url}/de`, fields)).status).toBe(403);
    expect((await (await f.as('developer')).get(url)).status).toBe(403);
    expect((await f.visitor().send('PUT', `${url}/de`, { fields }, 'application/json')).status).toBe(401);
    // Only the view's text leaves: not a yes/no row's value, nor a product's column.
    expect((await put('api_manager', `${url}/de`, { '/rows/4/values/0': 'Ja' })).status).toBe(400);
    expect((await put('api_manager', `${url}/de`, { '/columns/0/title': 'Konten' })).status).toBe(400);
    expect((await put('api_manager', `${url}/en`, fields)).status).toBe(400);
    expect(
      (
        await put(
          'api_manager',
          `${BASE}/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/translations/de`,
          fields,
        )
      ).status,
    ).toBe(404);

    const manager = await f.as('api_manager');
    const listed = await json<Translations>(await manager.get(url));
    expect(listed.meta.sources?.['/rows/1/values/2']).toBe('Daily files');
    expect(listed.meta.fields).not.toContain('/rows/4/values/0');
    expect(listed.meta.fields).not.toContain('/columns/0/title');
    expect(listed.data[0]!.updatedBy).toBeNull(); // as the import wrote it

    const saved = await dataOf<{ fields: Record<string, string> }>(
      await put('api_manager', `${url}/de`, { ...GERMAN, ...fields }),
    );
    expect(saved.fields['/rows/3/title']).toBe('Datenumfang');
    const de = tableOf(await productsIn('de'));
    expect(de.rows[3]!.attributes.title).toBe('Datenumfang');
    expect(de.table.attributes.title).toBe(GERMAN['/title']);
    expect(await productsIn()).toBe(englishBefore);
    expect(await auditActions(f.t, 'comparison_table', id)).toContain('comparison_table.translated');

    // The export writes the table's block.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-comparison-translations-'));
    dirs.push(dir);
    fs.cpSync(CONTENT, dir, { recursive: true });
    await exportCatalogProducts(f.t.app.db, dir);
    const exported = (
      parse(fs.readFileSync(path.join(dir, 'catalog/documentation.yaml'), 'utf8')) as {
        comparisonTables: DemoTable[];
      }
    ).comparisonTables.find((t) => t.key === 'account-apis')!;
    expect(exported.translations.de).toEqual({ ...GERMAN, ...fields });

    // Deleted: the table falls back to English, marked.
    expect((await deleteAs(manager, `${url}/de`)).status).toBe(204);
    const fallback = tableOf(await productsIn('de'));
    expect(fallback.table.attributes.title).toBe(demo.title);
    expect(fallback.table.meta?.translation).toEqual({ langcode: 'de', shown: 'en', fallback: true });
    expect(await auditActions(f.t, 'comparison_table', id)).toContain('comparison_table.translation_deleted');
  });

  it('a table’s translations go with it when it is deleted', async () => {
    const manager = await f.as('api_manager');
    const created = await manager.send(
      'POST',
      BASE,
      {
        key: 'otter-table',
        title: 'Otter table',
        columns: [{ title: 'Otters' }],
        rows: [{ type: 'comparison_text_row', title: 'Speed', values: ['Fast'] }],
      },
      'application/json',
    );
    expect(created.status, await created.clone().text()).toBe(201);
    const table = (await json<{ data: { id: string; version: number } }>(created)).data;
    const url = `${BASE}/${table.id}/translations`;
    await dataOf(
      await put('api_manager', `${url}/de`, { '/rows/0/values/0': 'Schnell', '/columns/0/title': 'Otter' }),
    );
    expect((await deleteAs(manager, `${BASE}/${table.id}`, table.version)).status).toBe(204);
    const { rows } = await sql`select entity_id from content_translations
      where entity_type = 'comparison_table' and entity_id = ${table.id}`.execute(f.t.app.db);
    expect(rows).toEqual([]);
  });
});
