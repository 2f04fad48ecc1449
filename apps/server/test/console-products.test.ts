import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  ConsoleProduct,
  ConsoleProductListItem,
  ProductFields,
} from '@portico/contracts/console-products';
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
 * API managers edit the catalog's products in the console (issue 27, catalog README 'Console: API
 * products'): order, texts, category, commercial, deprecation with a successor, retirement,
 * features, advantages and related products, with versions and conflicts, audited, shown by the
 * catalog and the search at once, and kept by the content import.
 */
const E = en.console.products.errors;
const REPO_CONTENT = path.resolve(import.meta.dirname, '../../../content');
let t: TestApp;
let manager: TestClient;
let admin: TestClient;
let others: TestClient[];
let anonymous: TestClient;

beforeAll(async () => {
  t = await startTestApp();
  manager = await signedInUser(t, 'products.manager@example.com', { roles: ['api_manager'] });
  admin = await signedInUser(t, 'products.admin@example.com', { admin: true });
  others = [
    await signedInUser(t, 'products.dev@example.com'),
    await signedInUser(t, 'products.editor@example.com', { roles: ['content_editor'] }),
    await signedInUser(t, 'products.agent@example.com', { roles: ['support_agent'] }),
    await signedInUser(t, 'products.reviewer@example.com', { roles: ['go_live_reviewer'] }),
  ];
  anonymous = new TestClient(t.baseUrl);
});
afterAll(async () => {
  await t?.close();
});

interface ErrorBody {
  errors: { status: string; code: string; title: string; source?: { pointer?: string } }[];
  meta?: { current: ConsoleProduct; changes: { field: string; before: string; after: string }[] };
}

async function json<T>(res: Response): Promise<T> {
  const text = await res.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`not JSON (${res.status}): ${text}`);
  }
}

async function list(client = manager): Promise<ConsoleProductListItem[]> {
  const res = await client.get('/admin-api/catalog/products');
  expect(res.status).toBe(200);
  return (await json<{ data: ConsoleProductListItem[] }>(res)).data;
}

async function product(alias: string): Promise<ConsoleProduct> {
  const item = (await list()).find((p) => p.alias === alias);
  if (!item) throw new Error(`no product ${alias}`);
  const res = await manager.get(`/admin-api/catalog/products/${item.id}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('etag')).toBe(`"${item.version}"`);
  return (await json<{ data: ConsoleProduct }>(res)).data;
}

function fieldsOf(p: ConsoleProduct): ProductFields {
  return {
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
  };
}

const save = (p: ConsoleProduct, changes: Partial<ProductFields>, client = manager, version = p.version) =>
  client.send(
    'PATCH',
    `/admin-api/catalog/products/${p.id}`,
    { ...fieldsOf(p), ...changes, version },
    'application/json',
  );

async function saved(res: Response): Promise<ConsoleProduct> {
  const body = await json<{ data: ConsoleProduct } & ErrorBody>(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.data;
}

async function publicProduct(id: string) {
  return fetch(`${t.baseUrl}/jsonapi/node/api_product/${id}`);
}

async function publicList(): Promise<string[]> {
  const res = await fetch(`${t.baseUrl}/jsonapi/node/api_product`);
  const body = (await res.json()) as { data: { attributes: { title: string; path: { alias: string } } }[] };
  return body.data.map((d) => d.attributes.path.alias);
}

async function searchRow(uuid: string) {
  const { rows } = await sql<{
    title: string;
    deprecated: boolean;
  }>`select title, deprecated from search_documents where type = 'api_product' and langcode = 'en' and uuid = ${uuid}`.execute(
    t.app.db,
  );
  return rows[0];
}

async function auditEntries(targetId: string) {
  const { rows } = await sql<{
    action: string;
    actor_email: string | null;
    before: unknown;
    after: unknown;
  }>`select action, actor_email, before, after from audit_log
     where target_type = 'api_product' and target_id = ${targetId} order by id`.execute(t.app.db);
  return rows.map((r) => ({
    ...r,
    before: typeof r.before === 'string' ? (JSON.parse(r.before) as unknown) : r.before,
    after: typeof r.after === 'string' ? (JSON.parse(r.after) as unknown) : r.after,
  }));
}

describe('the console lists and reads products', () => {
  it('lists every product in the catalog order with its state and version', async () => {
    const items = await list();
    expect(items.map((p) => p.alias)).toEqual([
      'accounts-api-v1',
      'payments-api-v1',
      'fx-rates-api-v2',
      'get-token-api',
      'accounts-api-v0',
    ]);
    const v0 = items.find((p) => p.alias === 'accounts-api-v0')!;
    expect(v0).toMatchObject({ deprecated: true, retired: false, successor: null, version: 1 });
    expect((await list(admin)).length).toBe(items.length);
  });

  it('reads one product with its features, advantages and related products', async () => {
    const p = await product('accounts-api-v1');
    expect(p.title).toBe('Accounts API');
    expect(p.features.map((f) => f.title)).toContain('Real-time balances');
    expect(p.advantages.length).toBeGreaterThan(0);
    expect(p.related.length).toBeGreaterThan(0);
    const missing = await manager.get('/admin-api/catalog/products/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect((await manager.get('/admin-api/catalog/products/nope')).status).toBe(404);
  });

  it('lists the categories for the form', async () => {
    const res = await manager.get('/admin-api/catalog/categories');
    const body = await json<{ data: { id: string; name: string }[] }>(res);
    expect(body.data.map((c) => c.name)).toEqual(['Accounts', 'Payments', 'Markets', 'Security']);
  });

  it('refuses everyone but API managers and administrators, and changes nothing', async () => {
    const p = await product('fx-rates-api-v2');
    for (const client of [...others, anonymous]) {
      const reads = [
        await client.get('/admin-api/catalog/products'),
        await client.get(`/admin-api/catalog/products/${p.id}`),
        await client.get('/admin-api/catalog/categories'),
      ];
      for (const res of reads) expect([401, 403]).toContain(res.status);
      const write = await save(p, { title: 'Hijacked' }, client);
      expect([401, 403]).toContain(write.status);
      const move = await client.send(
        'POST',
        `/admin-api/catalog/products/${p.id}/move`,
        { direction: 'up', version: p.version },
        'application/json',
      );
      expect([401, 403]).toContain(move.status);
    }
    expect(await product('fx-rates-api-v2')).toEqual(p);
  });
});

describe('saving a product', () => {
  it('saves the texts, label, category, commercial flag and items; raises the version; audits it', async () => {
    const p = await product('fx-rates-api-v2');
    const categories = await json<{ data: { id: string; name: string }[] }>(
      await manager.get('/admin-api/catalog/categories'),
    );
    const security = categories.data.find((c) => c.name === 'Security')!.id;
    const payments = await product('payments-api-v1');
    const after = await saved(
      await save(p, {
        title: 'FX Rates API (console)',
        label: 'HOT',
        description: '<p>Rates <script>alert(1)</script>every minute.</p>',
        category: security,
        commercial: true,
        features: [{ title: 'One feature', description: '<p>Only one</p>', icon: null }],
        advantages: [{ title: 'An advantage', description: 'Plain' }],
        related: [payments.id],
      }),
    );
    expect(after.version).toBe(p.version + 1);
    expect(after.editedAt).not.toBeNull();
    expect(after.description).toBe('<p>Rates every minute.</p>');
    expect(after).toMatchObject({
      title: 'FX Rates API (console)',
      label: 'HOT',
      category: security,
      commercial: true,
      related: [payments.id],
      features: [{ title: 'One feature', description: '<p>Only one</p>', icon: null }],
      advantages: [{ title: 'An advantage', description: 'Plain' }],
    });

    // The catalog and the search show it at once.
    const res = await publicProduct(`${p.id}?include=field_features,field_related_products`);
    const doc = (await res.json()) as {
      data: { attributes: Record<string, unknown> };
      included: { type: string; attributes: { title: string } }[];
    };
    expect(doc.data.attributes).toMatchObject({
      title: 'FX Rates API (console)',
      field_label: 'HOT',
      field_commercial_product: true,
    });
    expect(
      doc.included.filter((i) => i.type === 'paragraph--feature').map((i) => i.attributes.title),
    ).toEqual(['One feature']);
    expect((await searchRow(p.id))?.title).toBe('FX Rates API (console)');

    const audit = await auditEntries(p.id);
    expect(audit.at(-1)).toMatchObject({
      action: 'product.updated',
      actor_email: 'products.manager@example.com',
    });
    expect(audit.at(-1)!.before).toMatchObject({ title: 'FX Rates API', version: p.version });
    expect(audit.at(-1)!.after).toMatchObject({ title: 'FX Rates API (console)', version: after.version });

    // Back as it was (by an administrator).
    const restored = await saved(await save(after, fieldsOf(p), admin));
    expect(fieldsOf(restored)).toEqual(fieldsOf(p));
  });

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const p = await product('fx-rates-api-v2');
    const other = await product('payments-api-v1');
    const cases: [Partial<ProductFields> & Record<string, unknown>, string, string | undefined][] = [
      [{ title: '  ' }, '/title', undefined],
      [{ weight: 1.5 }, '/weight', undefined],
      [{ category: '00000000-0000-4000-8000-000000000000' }, '/category', E.categoryUnknown],
      [
        { deprecated: true, successor: '00000000-0000-4000-8000-000000000000' },
        '/successor',
        E.successorUnknown,
      ],
      [{ deprecated: true, successor: 'not-a-uuid' }, '/successor', E.successorUnknown],
      [{ deprecated: true, successor: p.id }, '/successor', E.successorSelf],
      [{ deprecated: false, successor: other.id }, '/successor', E.successorNotDeprecated],
      [{ related: [p.id] }, '/related/0', E.relatedSelf],
      [{ related: [other.id, other.id] }, '/related', E.relatedTwice],
      [
        { features: [{ title: 'x', description: '', icon: 'javascript:alert(1)' }] },
        '/features/0/icon',
        undefined,
      ],
      [{ unknown: 1 }, '', undefined],
    ];
    for (const [changes, pointer, title] of cases) {
      const res = await save(p, changes);
      const body = await json<ErrorBody>(res);
      expect(res.status, JSON.stringify(changes)).toBe(400);
      if (pointer) expect(body.errors[0]!.source?.pointer).toBe(pointer);
      if (title) expect(body.errors[0]!.title).toBe(title);
    }
    expect(await product('fx-rates-api-v2')).toEqual(p);
  });

  it('needs the version it started from, and refuses a stale one with 409 and the differences', async () => {
    const p = await product('get-token-api');
    const { version: _v, ...noVersion } = { ...fieldsOf(p), version: undefined };
    const missing = await manager.send(
      'PATCH',
      `/admin-api/catalog/products/${p.id}`,
      noVersion,
      'application/json',
    );
    expect(missing.status).toBe(428);

    const first = await saved(await save(p, { title: 'Get Token API (first)' }));
    const stale = await save(p, { title: 'Get Token API (second)' });
    expect(stale.status).toBe(409);
    const body = await json<ErrorBody>(stale);
    expect(body.errors[0]!.code).toBe('conflict');
    expect(body.meta!.current.version).toBe(first.version);
    expect(body.meta!.changes).toMatchObject([
      { field: 'title', before: 'Get Token API (second)', after: 'Get Token API (first)' },
    ]);
    expect((await product('get-token-api')).title).toBe('Get Token API (first)');

    // If-Match works as the version too.
    const res = await manager.request(`/admin-api/catalog/products/${p.id}`, {
      method: 'PATCH',
      headers: {
        'content-type': 'application/json',
        'x-csrf-token': manager.csrfToken!,
        'if-match': `"${first.version}"`,
      },
      body: JSON.stringify(fieldsOf(p)),
    });
    expect((await saved(res)).title).toBe('Get Token API');
  });
});

describe('deprecation and its successor', () => {
  it("leads 'GO TO NEW VERSION' to the chosen successor, and back to the family's newest when undone", async () => {
    const fx = await product('fx-rates-api-v2');
    const payments = await product('payments-api-v1');
    const newest = async (id: string) => {
      const res = await fetch(`${t.baseUrl}/api/products/${id}/newest-version`);
      return {
        status: res.status,
        body: res.status === 200 ? ((await res.json()) as { data: { uuid: string } }) : null,
      };
    };
    const deprecated = await saved(await save(fx, { deprecated: true, successor: payments.id }));
    expect(deprecated.successor).toBe(payments.id);
    expect((await newest(fx.id)).body?.data.uuid).toBe(payments.id);
    expect(await publicList()).not.toContain('/fx-rates-api-v2');
    expect((await searchRow(fx.id))?.deprecated).toBe(true);
    expect((await list()).find((p) => p.id === fx.id)!.successor).toMatchObject({ id: payments.id });
    expect((await auditEntries(fx.id)).at(-1)!.action).toBe('product.deprecated');

    const undone = await saved(await save(deprecated, { deprecated: false, successor: null }));
    expect(undone.deprecated).toBe(false);
    expect((await newest(fx.id)).body?.data.uuid).toBe(fx.id);
    expect(await publicList()).toContain('/fx-rates-api-v2');
    expect((await searchRow(fx.id))?.deprecated).toBe(false);
  });

  it('sets the successor of an already deprecated version, and refuses a retired one', async () => {
    const v0 = await product('accounts-api-v0');
    const fx = await product('fx-rates-api-v2');
    const led = await saved(await save(v0, { successor: fx.id }));
    const newest = await fetch(`${t.baseUrl}/api/products/${v0.id}/newest-version`);
    expect(((await newest.json()) as { data: { uuid: string } }).data.uuid).toBe(fx.id);

    // Retiring the successor lets the deprecated version lead to its family's newest again.
    const retired = await saved(await save(fx, { retired: true }));
    expect((await product('accounts-api-v0')).successor).toBeNull();
    const v1 = await product('accounts-api-v1');
    const back = await fetch(`${t.baseUrl}/api/products/${v0.id}/newest-version`);
    expect(((await back.json()) as { data: { uuid: string } }).data.uuid).toBe(v1.id);

    const refused = await save(await product('accounts-api-v0'), { successor: fx.id });
    expect(refused.status).toBe(400);
    expect((await json<ErrorBody>(refused)).errors[0]!.title).toBe(E.successorRetired);

    await saved(await save(retired, { retired: false }));
    const current = await product('accounts-api-v0');
    expect(fieldsOf(current)).toEqual({ ...fieldsOf(led), successor: null });
  });
});

describe('retirement', () => {
  it('takes the product out of the catalog, its relations and the search; keeps it in the console', async () => {
    const fx = await product('fx-rates-api-v2');
    const retired = await saved(await save(fx, { retired: true }));
    expect((await auditEntries(fx.id)).at(-1)!.action).toBe('product.retired');
    expect(await publicList()).not.toContain('/fx-rates-api-v2');
    expect((await publicProduct(fx.id)).status).toBe(404);
    expect((await fetch(`${t.baseUrl}/api/products/${fx.id}/newest-version`)).status).toBe(404);
    const uuid = await fetch(`${t.baseUrl}/phpsdk/products/getProductUuid?pathAlias=fx-rates-api-v2`);
    expect(uuid.status).toBe(404);
    expect(await searchRow(fx.id)).toBeUndefined();
    expect((await list()).find((p) => p.id === fx.id)!.retired).toBe(true);

    const back = await saved(await save(retired, { retired: false }));
    expect((await publicProduct(fx.id)).status).toBe(200);
    expect(await searchRow(fx.id)).toBeDefined();
    expect(fieldsOf(back)).toEqual(fieldsOf(fx));
  });
});

describe('reordering', () => {
  it('moves a product up and down the catalog, renumbering the weights', async () => {
    const before = await list();
    const payments = before.find((p) => p.alias === 'payments-api-v1')!;
    const move = (id: string, direction: string, version: number) =>
      manager.send(
        'POST',
        `/admin-api/catalog/products/${id}/move`,
        { direction, version },
        'application/json',
      );

    const up = await saved(await move(payments.id, 'up', payments.version));
    expect(up.version).toBe(payments.version + 1);
    const after = await list();
    expect(after.map((p) => p.alias).slice(0, 2)).toEqual(['payments-api-v1', 'accounts-api-v1']);
    expect(after.map((p) => p.weight)).toEqual(after.map((_, i) => i));
    expect((await publicList()).slice(0, 2)).toEqual(['/payments-api-v1', '/accounts-api-v1']);
    expect((await auditEntries(payments.id)).at(-1)!.action).toBe('product.reordered');

    const edge = await move(payments.id, 'up', up.version);
    expect(edge.status).toBe(409);
    const stale = await move(payments.id, 'down', payments.version);
    expect(stale.status).toBe(409);
    expect((await json<ErrorBody>(stale)).meta!.current.version).toBe(up.version);
    const bad = await move(payments.id, 'sideways', up.version);
    expect(bad.status).toBe(400);

    await saved(await move(payments.id, 'down', up.version));
    expect((await list()).map((p) => p.alias)).toEqual(before.map((p) => p.alias));
  });
});

describe('the content import', () => {
  it('keeps what the console edited and updates the products it did not', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-products-'));
    try {
      fs.cpSync(REPO_CONTENT, dir, { recursive: true });
      const file = path.join(dir, 'catalog', 'products.yaml');
      const yaml = fs.readFileSync(file, 'utf8');
      fs.writeFileSync(
        file,
        yaml
          .replace('title: FX Rates API', 'title: FX Rates API from the file')
          .replace('title: Get Token API', 'title: Get Token API from the file'),
      );
      const fx = await product('fx-rates-api-v2');
      const edited = await saved(await save(fx, { title: 'FX Rates API in the console', related: [] }));
      const token = await product('get-token-api');
      // get-token-api was edited by the tests above: hand it back to the file.
      await catalogDb(t.app.db)
        .updateTable('api_products')
        .set({ edited_at: null })
        .where('uuid', '=', token.id)
        .execute();

      expect(await importCatalogContent(t.app.db, dir, t.app.config.publicUrl)).toBe('imported');
      const kept = await product('fx-rates-api-v2');
      expect(fieldsOf(kept)).toEqual(fieldsOf(edited));
      expect((await product('get-token-api')).title).toBe('Get Token API from the file');

      // Back to the demo content.
      await saved(await save(kept, fieldsOf(fx)));
      await catalogDb(t.app.db)
        .updateTable('api_products')
        .set({ edited_at: null })
        .where('uuid', '=', token.id)
        .execute();
      expect(await importCatalogContent(t.app.db, REPO_CONTENT, t.app.config.publicUrl)).toBe('imported');
      expect((await product('get-token-api')).title).toBe('Get Token API');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the export', () => {
  it('writes the products edited in the console into their catalog files; a fresh import gives the same fields', async () => {
    const fx = await product('fx-rates-api-v2');
    const payments = await product('payments-api-v1');
    const token = await product('get-token-api');
    const categories = await json<{ data: { id: string; name: string }[] }>(
      await manager.get('/admin-api/catalog/categories'),
    );
    const edited = await saved(
      await save(fx, {
        title: 'FX Rates API: "quoted" & colons',
        label: 'BETA',
        description: '<p>Rates\nover two lines.</p>',
        weight: 7,
        category: categories.data.find((c) => c.name === 'Payments')!.id,
        commercial: true,
        deprecated: true,
        successor: payments.id,
        features: [{ title: 'Only feature', description: '<p>One</p>', icon: '/catalog/images/fx.svg' }],
        advantages: [],
        related: [token.id, payments.id],
      }),
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-products-export-'));
    try {
      fs.cpSync(REPO_CONTENT, dir, { recursive: true });
      const result = await exportCatalogProducts(t.app.db, dir);
      expect(result.written).toContain('fx-rates-api-v2');
      expect(result.files).toEqual(['catalog/products.yaml']);
      expect(result.skipped).toEqual([]);

      // In a fresh database the file gives the same fields (uuids differ: compared by name).
      const fresh = await startTestApp({ CONTENT_DIR: dir });
      try {
        const named = async (app: TestApp, alias: string) => {
          const c = catalogDb(app.app.db);
          const row = await c
            .selectFrom('api_products as p')
            .leftJoin('product_categories as cat', 'cat.id', 'p.category_id')
            .leftJoin('api_products as s', 's.id', 'p.successor_id')
            .select([
              'p.id',
              'p.title',
              'p.label',
              'p.description',
              'p.weight',
              'p.commercial',
              'p.deprecated',
              'p.retired',
              'cat.name as category',
              's.alias as successor',
            ])
            .where('p.alias', '=', alias)
            .executeTakeFirstOrThrow();
          const features = await c
            .selectFrom('product_features')
            .select(['title', 'description', 'icon_url'])
            .where('product_id', '=', row.id)
            .orderBy('weight')
            .execute();
          const advantages = await c
            .selectFrom('product_advantages')
            .select(['title', 'description'])
            .where('product_id', '=', row.id)
            .orderBy('weight')
            .execute();
          const related = await c
            .selectFrom('related_products as r')
            .innerJoin('api_products as o', 'o.id', 'r.related_product_id')
            .select('o.alias')
            .where('r.product_id', '=', row.id)
            .orderBy('r.weight')
            .execute();
          const { id: _id, ...fields } = row;
          return { ...fields, features, advantages, related: related.map((r) => r.alias) };
        };
        const mine = await named(t, 'fx-rates-api-v2');
        expect(mine).toMatchObject({ title: edited.title, successor: 'payments-api-v1', weight: 7 });
        expect(await named(fresh, 'fx-rates-api-v2')).toEqual(mine);
        // The products nobody edited are as the demo has them.
        expect(await named(fresh, 'accounts-api-v1')).toEqual(await named(t, 'accounts-api-v1'));
      } finally {
        await fresh.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await saved(await save(edited, fieldsOf(fx)));
    }
  });
});
