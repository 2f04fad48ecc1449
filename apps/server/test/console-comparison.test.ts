import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  ComparisonTableFields,
  ConsoleComparisonTable,
  ConsoleComparisonTableListItem,
  ConsoleProductListItem,
} from '@portico/contracts/console-products';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportCatalogProducts } from '../src/modules/catalog/export.ts';
import { importCatalogContent } from '../src/modules/catalog/importer.ts';
import { catalogDb } from '../src/modules/catalog/tables.ts';
import { TestClient } from './http-client.ts';
import { signedInUser } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * API managers edit the comparison tables product pages show (issue 27, spec B 3 'comparison
 * table', catalog README 'Console: API products'): columns, category, text and yes/no rows, the
 * products that show the table; versions and conflicts, audit, the product page at once, kept by
 * the content import and written by the export (a fresh import gives the same table).
 */
const E = en.console.products.errors;
const REPO_CONTENT = path.resolve(import.meta.dirname, '../../../content');
const BASE = '/admin-api/catalog/comparison-tables';
let t: TestApp;
let manager: TestClient;
let admin: TestClient;
let others: TestClient[];
let anonymous: TestClient;

beforeAll(async () => {
  t = await startTestApp();
  manager = await signedInUser(t, 'compare.manager@example.com', { roles: ['api_manager'] });
  admin = await signedInUser(t, 'compare.admin@example.com', { admin: true });
  others = [
    await signedInUser(t, 'compare.dev@example.com'),
    await signedInUser(t, 'compare.editor@example.com', { roles: ['content_editor'] }),
    await signedInUser(t, 'compare.agent@example.com', { roles: ['support_agent'] }),
    await signedInUser(t, 'compare.reviewer@example.com', { roles: ['go_live_reviewer'] }),
  ];
  anonymous = new TestClient(t.baseUrl);
});
afterAll(async () => {
  await t?.close();
});

interface ErrorBody {
  errors: { status: string; code: string; title: string; source?: { pointer?: string } }[];
  meta?: { current: ConsoleComparisonTable; changes: { field: string }[] };
}

async function json<T>(res: Response): Promise<T> {
  const text = await res.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`not JSON (${res.status}): ${text}`);
  }
}

async function products(): Promise<Map<string, string>> {
  const res = await manager.get('/admin-api/catalog/products');
  const body = await json<{ data: ConsoleProductListItem[] }>(res);
  return new Map(body.data.map((p) => [p.alias, p.id]));
}

async function tables(client = manager): Promise<ConsoleComparisonTableListItem[]> {
  const res = await client.get(BASE);
  expect(res.status).toBe(200);
  return (await json<{ data: ConsoleComparisonTableListItem[] }>(res)).data;
}

async function table(id: string): Promise<ConsoleComparisonTable> {
  const res = await manager.get(`${BASE}/${id}`);
  expect(res.status).toBe(200);
  const body = await json<{ data: ConsoleComparisonTable }>(res);
  expect(res.headers.get('etag')).toBe(`"${body.data.version}"`);
  return body.data;
}

const fieldsOf = (x: ConsoleComparisonTable): ComparisonTableFields => ({
  title: x.title,
  columns: x.columns,
  rows: x.rows,
  products: x.products,
});

const save = (
  x: ConsoleComparisonTable,
  changes: Partial<ComparisonTableFields>,
  client = manager,
  version = x.version,
) => client.send('PATCH', `${BASE}/${x.id}`, { ...fieldsOf(x), ...changes, version }, 'application/json');

async function saved(res: Response): Promise<ConsoleComparisonTable> {
  const body = await json<{ data: ConsoleComparisonTable } & ErrorBody>(res);
  expect(res.status, JSON.stringify(body)).toBeLessThan(300);
  return body.data;
}

/** The table as the product page reads it: column names and rows. */
async function publicTable(productId: string) {
  const res = await fetch(
    `${t.baseUrl}/jsonapi/node/api_product/${productId}?include=field_comparison_table,field_comparison_table.field_rows`,
  );
  expect(res.status).toBe(200);
  const doc = (await res.json()) as {
    data: { relationships: { field_comparison_table: { data: { id: string } | null } } };
    included?: { type: string; id: string; attributes: Record<string, unknown> }[];
  };
  const ref = doc.data.relationships.field_comparison_table.data;
  if (!ref) return null;
  const tableDoc = doc.included!.find((i) => i.id === ref.id)!;
  return {
    title: tableDoc.attributes.title,
    names: tableDoc.attributes.field_product_names,
    rows: doc
      .included!.filter((i) => i.type.startsWith('paragraph--comparison'))
      .sort((a, b) => Number(a.attributes.weight) - Number(b.attributes.weight))
      .map((i) => [i.type, i.attributes.title, i.attributes.field_values ?? null]),
  };
}

async function auditActions(targetId: string) {
  const { rows } = await sql<{ action: string }>`
    select action from audit_log where target_type = 'comparison_table' and target_id = ${targetId} order by id`.execute(
    t.app.db,
  );
  return rows.map((r) => r.action);
}

describe('comparison tables in the console', () => {
  it('lists the tables with the products that show them', async () => {
    const list = await tables();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ key: 'account-apis', columns: 3, rows: 7, version: 1 });
    expect(list[0]!.products.map((p) => p.title)).toEqual(['Accounts API']);
    expect(await tables(admin)).toEqual(list);
  });

  it('saves rows and columns; the product page shows them at once; stale saves are 409; audited', async () => {
    const ids = await products();
    const before = await table((await tables())[0]!.id);
    expect(before.columns[0]).toEqual({ product: ids.get('accounts-api-v1'), title: null });
    const rows = [
      ...before.rows,
      { type: 'comparison_category' as const, title: 'Support', values: [] },
      { type: 'comparison_text_row' as const, title: 'Hours', values: ['24/7', 'Office', 'None'] },
      { type: 'comparison_boolean_row' as const, title: 'Webhooks', values: ['1', '0', '0'] },
    ];
    const after = await saved(
      await save(before, { rows, products: [ids.get('accounts-api-v1')!, ids.get('payments-api-v1')!] }),
    );
    expect(after.version).toBe(before.version + 1);
    expect(after.editedAt).not.toBeNull();
    const shown = await publicTable(ids.get('payments-api-v1')!);
    expect(shown!.rows.slice(-3)).toEqual([
      ['paragraph--comparison_category', 'Support', null],
      ['paragraph--comparison_text_row', 'Hours', ['24/7', 'Office', 'None']],
      ['paragraph--comparison_boolean_row', 'Webhooks', ['1', '0', '0']],
    ]);
    // The second column's product (Accounts API v0) is deprecated.
    expect(shown!.names).toEqual(['Accounts API', 'Deprecated API', 'Corporate statements (SFTP)']);
    expect(await auditActions(after.id)).toEqual(['comparison_table.updated']);

    const stale = await save(before, { title: 'Mine' });
    expect(stale.status).toBe(409);
    const conflict = await json<ErrorBody>(stale);
    expect(conflict.meta!.current.version).toBe(after.version);
    expect(conflict.meta!.changes.map((c) => c.field)).toEqual(['title', 'rows', 'products']);
    const noVersion = await manager.send(
      'PATCH',
      `${BASE}/${before.id}`,
      fieldsOf(before),
      'application/json',
    );
    expect(noVersion.status).toBe(428);

    // Back as it was; the payments page shows no table again.
    const back = await saved(await save(after, fieldsOf(before)));
    expect(fieldsOf(back)).toEqual(fieldsOf(before));
    expect(await publicTable(ids.get('payments-api-v1')!)).toBeNull();
  });

  it('refuses bad rows and columns with a 400 naming the place, writing nothing', async () => {
    const ids = await products();
    const x = await table((await tables())[0]!.id);
    const cases: [Partial<ComparisonTableFields>, string, string | undefined][] = [
      [{ title: ' ' }, '/title', undefined],
      [{ columns: [] }, '/columns', undefined],
      [{ columns: [...x.columns.slice(0, 2), { product: null, title: null }] }, '/columns/2', E.columnEmpty],
      [
        {
          columns: [
            ...x.columns.slice(0, 2),
            { product: '00000000-0000-4000-8000-000000000000', title: null },
          ],
        },
        '/columns/2/product',
        E.columnProductUnknown,
      ],
      [
        { columns: [x.columns[0]!, x.columns[0]!, x.columns[2]!] },
        '/columns/1/product',
        E.columnProductTwice,
      ],
      [
        { rows: [{ type: 'comparison_text_row', title: 'Short', values: ['a'] }] },
        '/rows/0/values',
        format(E.rowValuesCount, { count: 3 }),
      ],
      [
        { rows: [{ type: 'comparison_boolean_row', title: 'Yes', values: ['1', 'yes', '0'] }] },
        '/rows/0/values/1',
        E.rowBooleanValue,
      ],
      [
        { rows: [{ type: 'comparison_category', title: 'C', values: ['x'] }] },
        '/rows/0/values',
        E.rowCategoryValues,
      ],
      [{ products: ['00000000-0000-4000-8000-000000000000'] }, '/products/0', E.tableProductUnknown],
      [{ products: [ids.get('fx-rates-api-v2')!, ids.get('fx-rates-api-v2')!] }, '/products', undefined],
    ];
    for (const [changes, pointer, title] of cases) {
      const res = await save(x, changes);
      const body = await json<ErrorBody>(res);
      expect(res.status, JSON.stringify(changes)).toBe(400);
      expect(body.errors[0]!.source?.pointer, JSON.stringify(changes)).toBe(pointer);
      if (title) expect(body.errors[0]!.title).toBe(title);
    }
    expect(await table(x.id)).toEqual(x);
  });

  it('creates a table on a product and deletes it; a taken key is a 409', async () => {
    const ids = await products();
    const fields: ComparisonTableFields & { key: string } = {
      key: 'fx-plans',
      title: 'FX plans',
      columns: [
        { product: ids.get('fx-rates-api-v2')!, title: null },
        { product: null, title: 'Spot desk' },
      ],
      rows: [{ type: 'comparison_boolean_row', title: 'Streaming', values: ['1', '0'] }],
      products: [ids.get('fx-rates-api-v2')!],
    };
    const res = await manager.send('POST', BASE, fields, 'application/json');
    expect(res.status).toBe(201);
    const created = (await json<{ data: ConsoleComparisonTable }>(res)).data;
    expect(created).toMatchObject({ key: 'fx-plans', version: 1, products: [ids.get('fx-rates-api-v2')] });
    expect((await publicTable(ids.get('fx-rates-api-v2')!))!.names).toEqual(['FX Rates API', 'Spot desk']);
    const again = await manager.send('POST', BASE, fields, 'application/json');
    expect(again.status).toBe(409);
    expect((await json<ErrorBody>(again)).errors[0]!.title).toBe(E.comparisonKeyTaken);

    const del = await manager.request(`${BASE}/${created.id}`, {
      method: 'DELETE',
      headers: { 'x-csrf-token': manager.csrfToken ?? '', 'if-match': '"1"' },
    });
    expect(del.status).toBe(204);
    expect(await publicTable(ids.get('fx-rates-api-v2')!)).toBeNull();
    expect(await auditActions(created.id)).toEqual(['comparison_table.created', 'comparison_table.deleted']);
    expect((await manager.get(`${BASE}/${created.id}`)).status).toBe(404);
  });

  it('refuses every other role and visitors, changing nothing', async () => {
    const x = await table((await tables())[0]!.id);
    for (const client of [...others, anonymous]) {
      const calls = [
        await client.get(BASE),
        await client.get(`${BASE}/${x.id}`),
        await save(x, { title: 'Hijacked' }, client),
        await client.send('POST', BASE, { ...fieldsOf(x), key: 'hijack' }, 'application/json'),
        await client.request(`${BASE}/${x.id}`, {
          method: 'DELETE',
          headers: { 'x-csrf-token': client.csrfToken ?? '' },
        }),
      ];
      for (const res of calls) expect(client === anonymous ? [401, 403] : [403]).toContain(res.status);
    }
    expect(await table(x.id)).toEqual(x);
    expect(await tables()).toHaveLength(1);
  });
});

describe('the content import and the export', () => {
  it('keeps a table saved in the console; the export writes it; a fresh import gives the same table', async () => {
    const ids = await products();
    const x = await table((await tables())[0]!.id);
    const edited = await saved(
      await save(x, {
        title: 'Compare: "accounts" & more',
        columns: [x.columns[0]!, { product: ids.get('fx-rates-api-v2')!, title: 'FX' }],
        rows: [
          { type: 'comparison_category', title: 'Access', values: [] },
          { type: 'comparison_text_row', title: 'Rate limit', values: ['100 per hour', ''] },
          { type: 'comparison_boolean_row', title: 'Balances', values: ['1', '0'] },
        ],
        products: [ids.get('fx-rates-api-v2')!],
      }),
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-compare-'));
    try {
      fs.cpSync(REPO_CONTENT, dir, { recursive: true });
      const file = path.join(dir, 'catalog', 'documentation.yaml');
      fs.writeFileSync(file, `${fs.readFileSync(file, 'utf8')}\n# changed\n`);
      expect(await importCatalogContent(t.app.db, dir, t.app.config.publicUrl)).toBe('imported');
      expect(fieldsOf(await table(x.id))).toEqual(fieldsOf(edited));

      const result = await exportCatalogProducts(t.app.db, dir);
      expect(result.tables).toEqual(['account-apis']);
      expect(result.files).toEqual(
        expect.arrayContaining(['catalog/documentation.yaml', 'catalog/products.yaml']),
      );

      const fresh = await startTestApp({ CONTENT_DIR: dir });
      try {
        const named = async (app: TestApp) => {
          const c = catalogDb(app.app.db);
          const row = await c
            .selectFrom('comparison_tables')
            .select(['id', 'title'])
            .where('key', '=', 'account-apis')
            .executeTakeFirstOrThrow();
          const columns = await c
            .selectFrom('comparison_table_products as col')
            .leftJoin('api_products as p', 'p.id', 'col.product_id')
            .select(['p.alias', 'col.title'])
            .where('col.table_id', '=', row.id)
            .orderBy('col.weight')
            .execute();
          const rows = await c
            .selectFrom('comparison_rows')
            .select(['type', 'title', 'values'])
            .where('table_id', '=', row.id)
            .orderBy('weight')
            .execute();
          const shownOn = await c
            .selectFrom('api_products')
            .select('alias')
            .where('comparison_table_id', '=', row.id)
            .orderBy('alias')
            .execute();
          return { title: row.title, columns, rows, shownOn: shownOn.map((s) => s.alias) };
        };
        const mine = await named(t);
        expect(mine.shownOn).toEqual(['fx-rates-api-v2']);
        expect(await named(fresh)).toEqual(mine);
      } finally {
        await fresh.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
