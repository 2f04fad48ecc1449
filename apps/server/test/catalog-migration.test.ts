import { afterAll, beforeAll, expect, test } from 'vitest';
import { catalogDb } from '../src/modules/catalog/tables.ts';
import { startTestApp, type TestApp } from './test-app.ts';

let t: TestApp;
beforeAll(async () => {
  // Empty catalog: no demo content.
  t = await startTestApp({ IMPORT_CONTENT: 'false' });
});
afterAll(() => t.close());

test('the catalog tables exist with their defaults and cascades', async () => {
  const db = catalogDb(t.app.db);
  const cat = await db
    .insertInto('product_categories')
    .values({ name: 'X' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const p = await db
    .insertInto('api_products')
    .values({ title: 'P', alias: 'p-v1', category_id: cat.id, scope: 'a:read' })
    .returningAll()
    .executeTakeFirstOrThrow();
  expect(p.deprecated).toBe(false);
  expect(p.uuid).toMatch(/^[0-9a-f-]{36}$/);
  const d = await db
    .insertInto('api_documentations')
    .values({
      title: 'D',
      alias: 'd',
      source: '{}',
      source_format: 'json',
      converted: JSON.stringify({ openapi: '3.1.0' }),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  expect(d.plan).toBe('100 per hour');
  expect(d.converted).toEqual({ openapi: '3.1.0' });
  await db
    .insertInto('api_product_documentations')
    .values({ product_id: p.id, documentation_id: d.id })
    .execute();
  await db
    .insertInto('change_log_entries')
    .values({ product_id: p.id, version: '1.0', release_date: '2025-01-02' })
    .execute();
  await db.deleteFrom('api_products').where('id', '=', p.id).execute();
  expect(await db.selectFrom('api_product_documentations').selectAll().execute()).toEqual([]);
  expect(await db.selectFrom('change_log_entries').selectAll().execute()).toEqual([]);
});
