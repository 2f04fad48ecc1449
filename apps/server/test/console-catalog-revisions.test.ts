import type {
  ComparisonTableFields,
  ConsoleComparisonTable,
  ConsoleComparisonTableListItem,
  ConsoleProduct,
  ConsoleProductListItem,
  ProductFields,
} from '@portico/contracts/console-products';
import { en } from '@portico/contracts/messages';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from './http-client.ts';
import { signedInUser } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * The catalog's console items through the versioned-content component (issue 27, decision 048):
 * API products and comparison tables keep a revision of every save; the revisions list, one
 * revision with what differs from it to the current version, restore (version-checked, audited),
 * the 409 of a stale save with `meta.current` and the field diff, and a delete takes the item's
 * revisions with it.
 */
const E = en.console.products.errors;
const PRODUCTS = '/admin-api/catalog/products';
const TABLES = '/admin-api/catalog/comparison-tables';
let t: TestApp;
let manager: TestClient;
let developer: TestClient;

beforeAll(async () => {
  t = await startTestApp();
  manager = await signedInUser(t, 'revisions.manager@example.com', { roles: ['api_manager'] });
  developer = await signedInUser(t, 'revisions.dev@example.com');
});
afterAll(async () => {
  await t?.close();
});

type Part = { value: string; added: boolean; removed: boolean };
interface Change {
  field: string;
  before: string;
  after: string;
  parts: Part[];
}
interface RevisionItem {
  version: number;
  author: string | null;
  created: string;
  current: boolean;
}

async function json<T>(res: Response): Promise<T> {
  const text = await res.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`not JSON (${res.status}): ${text}`);
  }
}

async function ok<T>(res: Response, status = 200): Promise<T> {
  const body = await json<{ data: T }>(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body.data;
}

const added = (c: Change) =>
  c.parts
    .filter((p) => p.added)
    .map((p) => p.value)
    .join('');
const removed = (c: Change) =>
  c.parts
    .filter((p) => p.removed)
    .map((p) => p.value)
    .join('');

async function revisionRows(kind: string, itemId: number) {
  const { rows } = await sql<{ version: number }>`
    select version from content_revisions where kind = ${kind} and item_id = ${itemId} order by version`.execute(
    t.app.db,
  );
  return rows.map((r) => r.version);
}

async function auditActions(type: string, id: string) {
  const { rows } = await sql<{ action: string }>`
    select action from audit_log where target_type = ${type} and target_id = ${id} order by id`.execute(
    t.app.db,
  );
  return rows.map((r) => r.action);
}

describe('API product revisions', () => {
  const fieldsOf = (p: ConsoleProduct): ProductFields => ({
    title: p.title,
    label: p.label,
    description: p.description,
    weight: p.weight,
    category: p.category,
    commercial: p.commercial,
    deprecated: p.deprecated,
    successor: p.successor,
    retired: p.retired,
    features: p.features,
    advantages: p.advantages,
    related: p.related,
  });
  const save = (p: ConsoleProduct, changes: Partial<ProductFields>, version = p.version) =>
    manager.send('PATCH', `${PRODUCTS}/${p.id}`, { ...fieldsOf(p), ...changes, version }, 'application/json');

  async function product(alias: string): Promise<ConsoleProduct> {
    const list = await ok<ConsoleProductListItem[]>(await manager.get(PRODUCTS));
    const item = list.find((p) => p.alias === alias)!;
    return ok<ConsoleProduct>(await manager.get(`${PRODUCTS}/${item.id}`));
  }

  it('keeps a revision of each save, shows what differs from one to now, and restores it', async () => {
    const p = await product('fx-rates-api-v2');
    const first = await ok<ConsoleProduct>(
      await save(p, {
        title: 'FX Rates API (one)',
        features: [{ title: 'Fast', description: '', icon: null }],
      }),
    );
    const second = await ok<ConsoleProduct>(await save(first, { title: 'FX Rates API (two)', label: 'REV' }));

    const list = await json<{ data: RevisionItem[]; meta: { version: number } }>(
      await manager.get(`${PRODUCTS}/${p.id}/revisions`),
    );
    expect(list.meta.version).toBe(second.version);
    expect(list.data.map((r) => [r.version, r.current, r.author])).toEqual([
      [second.version, true, 'revisions.manager@example.com'],
      [first.version, false, 'revisions.manager@example.com'],
    ]);

    // From the first save to now: the title and the commercial flag.
    const one = await json<{ data: { version: number; fields: ProductFields; changes: Change[] } }>(
      await manager.get(`${PRODUCTS}/${p.id}/revisions/${first.version}`),
    );
    expect(one.data.fields.title).toBe('FX Rates API (one)');
    expect(one.data.fields.features).toEqual([{ title: 'Fast', description: '', icon: null }]);
    expect(one.data.changes.map((c) => c.field)).toEqual(['title', 'label']);
    const title = one.data.changes[0]!;
    expect([title.before, title.after]).toEqual(['FX Rates API (one)', 'FX Rates API (two)']);
    expect([removed(title), added(title)]).toEqual(['one', 'two']);

    // A restore names the version it replaces: a stale one is a 409 with what differs.
    const stale = await manager.send(
      'POST',
      `${PRODUCTS}/${p.id}/revisions/${first.version}/restore`,
      { version: first.version },
      'application/json',
    );
    expect(stale.status).toBe(409);
    const conflict = await json<{ meta: { current: ConsoleProduct; changes: Change[] } }>(stale);
    expect(conflict.meta.current.version).toBe(second.version);
    expect(conflict.meta.changes.map((c) => c.field)).toEqual(['title', 'label']);

    const restored = await ok<ConsoleProduct>(
      await manager.send(
        'POST',
        `${PRODUCTS}/${p.id}/revisions/${first.version}/restore`,
        { version: second.version },
        'application/json',
      ),
    );
    expect(restored.version).toBe(second.version + 1);
    expect(restored.title).toBe('FX Rates API (one)');
    expect(restored.label).toBe(p.label);
    expect(restored.features).toEqual([{ title: 'Fast', description: '', icon: null }]);
    expect((await auditActions('api_product', p.id)).slice(-3)).toEqual([
      'product.updated',
      'product.updated',
      'product.restored',
    ]);

    // No such revision, and one without a version.
    expect((await manager.get(`${PRODUCTS}/${p.id}/revisions/999`)).status).toBe(404);
    expect((await manager.get(`${PRODUCTS}/${p.id}/revisions/abc`)).status).toBe(404);
    const missing = await manager.send(
      'POST',
      `${PRODUCTS}/${p.id}/revisions/${first.version}/restore`,
      {},
      'application/json',
    );
    expect(missing.status).toBe(428);
    // Developers see no revision.
    expect((await developer.get(`${PRODUCTS}/${p.id}/revisions`)).status).toBe(403);

    // Back as it was.
    await ok(await save(restored, fieldsOf(p)));
  });

  it('a restore leaves out a related product deleted since', async () => {
    const created = await ok<ConsoleProduct>(
      await manager.send(
        'POST',
        PRODUCTS,
        { alias: 'revisions-gone-api', title: 'Gone API', description: '' },
        'application/json',
      ),
      201,
    );
    const p = await product('fx-rates-api-v2');
    const linked = await ok<ConsoleProduct>(await save(p, { related: [created.id] }));
    const unlinked = await ok<ConsoleProduct>(await save(linked, { related: [] }));
    const gone = await manager.request(`${PRODUCTS}/${created.id}`, {
      method: 'DELETE',
      headers: { 'x-csrf-token': manager.csrfToken!, 'if-match': `"${created.version}"` },
    });
    expect(gone.status).toBe(204);
    // The deleted product's revisions went with it.
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from content_revisions
      where kind = 'api_product' and fields->>'title' = 'Gone API'`.execute(t.app.db);
    expect(rows[0]!.n).toBe(0);

    const restored = await ok<ConsoleProduct>(
      await manager.send(
        'POST',
        `${PRODUCTS}/${p.id}/revisions/${linked.version}/restore`,
        { version: unlinked.version },
        'application/json',
      ),
    );
    expect(restored.related).toEqual([]);
    await ok(await save(restored, fieldsOf(p)));
  });

  it('a move keeps the revisions one a version', async () => {
    const p = await product('fx-rates-api-v2');
    const moved = await ok<ConsoleProduct>(
      await manager.send(
        'POST',
        `${PRODUCTS}/${p.id}/move`,
        { direction: 'up', version: p.version },
        'application/json',
      ),
    );
    const list = await json<{ data: RevisionItem[] }>(await manager.get(`${PRODUCTS}/${p.id}/revisions`));
    expect(list.data[0]).toMatchObject({ version: moved.version, current: true });
    await ok(
      await manager.send(
        'POST',
        `${PRODUCTS}/${p.id}/move`,
        { direction: 'down', version: moved.version },
        'application/json',
      ),
    );
  });
});

describe('comparison table revisions', () => {
  const fieldsOf = (x: ConsoleComparisonTable): ComparisonTableFields => ({
    title: x.title,
    columns: x.columns,
    rows: x.rows,
    products: x.products,
  });
  const save = (x: ConsoleComparisonTable, changes: Partial<ComparisonTableFields>, version = x.version) =>
    manager.send('PATCH', `${TABLES}/${x.id}`, { ...fieldsOf(x), ...changes, version }, 'application/json');

  it('keeps a revision of each save, diffs it, restores it; a stale save is a 409; a delete takes them', async () => {
    const list = await ok<ConsoleComparisonTableListItem[]>(await manager.get(TABLES));
    const x = await ok<ConsoleComparisonTable>(await manager.get(`${TABLES}/${list[0]!.id}`));
    const first = await ok<ConsoleComparisonTable>(await save(x, { title: 'Account APIs compared' }));
    const second = await ok<ConsoleComparisonTable>(
      await save(first, {
        rows: [...first.rows, { type: 'comparison_category', title: 'Support', values: [] }],
      }),
    );

    const stale = await save(first, { title: 'Mine' });
    expect(stale.status).toBe(409);
    const conflict = await json<{
      errors: { title: string }[];
      meta: { current: ConsoleComparisonTable; changes: Change[] };
    }>(stale);
    expect(conflict.errors[0]!.title).toBe(E.comparisonStale.replace('{{version}}', String(second.version)));
    expect(conflict.meta.current.version).toBe(second.version);
    expect(conflict.meta.changes.map((c) => c.field)).toEqual(['title', 'rows']);
    expect(added(conflict.meta.changes[1]!)).toContain('Support');

    const revisions = await json<{ data: RevisionItem[] }>(await manager.get(`${TABLES}/${x.id}/revisions`));
    expect(revisions.data.map((r) => r.version)).toEqual([second.version, first.version]);
    const one = await json<{ data: { changes: Change[] } }>(
      await manager.get(`${TABLES}/${x.id}/revisions/${first.version}`),
    );
    expect(one.data.changes.map((c) => c.field)).toEqual(['rows']);

    const restored = await ok<ConsoleComparisonTable>(
      await manager.send(
        'POST',
        `${TABLES}/${x.id}/revisions/${first.version}/restore`,
        { version: second.version },
        'application/json',
      ),
    );
    expect(restored.rows).toEqual(first.rows);
    expect(await auditActions('comparison_table', x.id)).toEqual([
      'comparison_table.updated',
      'comparison_table.updated',
      'comparison_table.restored',
    ]);
    await ok(await save(restored, fieldsOf(x)));

    // A table created and deleted takes its revisions with it.
    const created = await ok<ConsoleComparisonTable>(
      await manager.send(
        'POST',
        TABLES,
        { key: 'revisions-table', title: 'Revisions', columns: [{ product: null, title: 'One' }] },
        'application/json',
      ),
      201,
    );
    const { rows } = await sql<{
      id: number;
    }>`select id from comparison_tables where uuid = ${created.id}`.execute(t.app.db);
    const rowId = rows[0]!.id;
    expect(await revisionRows('comparison_table', rowId)).toEqual([created.version]);
    const gone = await manager.request(`${TABLES}/${created.id}`, {
      method: 'DELETE',
      headers: { 'x-csrf-token': manager.csrfToken!, 'if-match': `"${created.version}"` },
    });
    expect(gone.status).toBe(204);
    expect(await revisionRows('comparison_table', rowId)).toEqual([]);
  });
});
