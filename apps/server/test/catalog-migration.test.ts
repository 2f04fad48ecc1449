import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { migrateTo, migrateToLatest } from '../src/db/migrate.ts';
import { catalogDb } from '../src/modules/catalog/tables.ts';
import { createPostgresDatabase, startTestApp, testDbKind, type TestApp } from './test-app.ts';

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

test('migration 0110 re-processes stored documents bundled, with its frozen copy of the pipeline', async () => {
  // A database as the release before 0110 left it: documents stored dereferenced.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-0110-'));
  const postgres = testDbKind() === 'postgres' ? await createPostgresDatabase() : undefined;
  const handle = await openDatabase({ dataDir, databaseUrl: postgres?.url });
  try {
    await migrateTo(handle.db, '0101-search-sources');
    const source = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'Pets', version: '1' },
      servers: [{ url: 'https://api.example.com/v1' }],
      paths: {
        '/pets': {
          get: {
            operationId: 'listPets',
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
              },
            },
          },
        },
      },
      components: { schemas: { Pet: { type: 'object', properties: { name: { type: 'string' } } } } },
    });
    const insert = (alias: string, text: string, server: string) =>
      sql`insert into api_documentations (title, alias, source, source_format, converted)
        values (${alias}, ${alias}, ${text}, 'json', ${JSON.stringify({ openapi: '3.1.0', servers: [{ url: server }] })}::jsonb)`.execute(
        handle.db,
      );
    await insert('pets', source, 'https://portal.test/sandbox/pets');
    // A document that no longer processes keeps its stored form.
    await insert('broken', '{ "openapi": "3.0.3" }', 'https://portal.test/sandbox/broken');

    expect(await migrateTo(handle.db, '0110-bundled-documents')).toContain('0110-bundled-documents');
    const rows = await sql<{
      alias: string;
      converted: Record<string, unknown>;
      operation_index: unknown;
      content_hash: string | null;
    }>`
      select alias, converted, operation_index, content_hash from api_documentations order by alias`.execute(
      handle.db,
    );
    const [broken, pets] = rows.rows;
    expect(broken).toMatchObject({ alias: 'broken', operation_index: null, content_hash: null });
    expect(pets!.converted).toMatchObject({
      openapi: expect.stringMatching(/^3\.1/),
      servers: [{ url: 'https://portal.test/sandbox/pets' }],
    });
    // Bundled: the $ref is kept, not replaced by the schema.
    expect(JSON.stringify(pets!.converted)).toContain('"$ref":"#/components/schemas/Pet"');
    expect(pets!.content_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(pets!.operation_index).toMatchObject({
      alias: 'pets',
      operationCount: 1,
      tags: [{ operations: [{ key: 'listPets', method: 'get', path: '/pets' }] }],
    });
    const operations = await sql<{ exists: boolean }>`
      select exists (select 1 from information_schema.tables where table_name = 'api_operations') as exists`.execute(
      handle.db,
    );
    expect(operations.rows[0]!.exists).toBe(false);
  } finally {
    await handle.close();
    await postgres?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);

test('migration 0250 takes the operation count out of the stored indexes and lets the index be kept in rows', async () => {
  // A database as the release before 0250 left it: a fresh one (not the suite's migrated template).
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-0250-'));
  const postgres = testDbKind() === 'postgres' ? await createPostgresDatabase() : undefined;
  const handle = await openDatabase({ dataDir, databaseUrl: postgres?.url });
  try {
    await migrateTo(handle.db, '0240-support-file-deletions');
    const insert = (alias: string, index: string | null) =>
      sql<{ id: number }>`
      insert into api_documentations (title, alias, source, source_format, operation_index)
      values (${alias}, ${alias}, '{}', 'json', ${index}::json) returning id`.execute(handle.db);
    const indexed = (
      await insert('indexed', JSON.stringify({ alias: 'indexed', operationCount: 7, tags: [] }))
    ).rows[0]!.id;
    await insert('bare', null);
    // Before 0250 an index could not be kept in rows.
    await expect(
      sql`insert into api_document_texts (documentation_id, part, seq, body)
        values (${indexed}, 'operation_index', 0, '{}')`.execute(handle.db),
    ).rejects.toThrow(/api_document_texts_part_check/);

    expect(await migrateToLatest(handle.db)).toContain('0250-operation-index-rows');
    const counts = await catalogDb(handle.db)
      .selectFrom('api_documentations')
      .select(['alias', 'operation_count'])
      .orderBy('alias')
      .execute();
    expect(counts).toEqual([
      { alias: 'bare', operation_count: null },
      { alias: 'indexed', operation_count: 7 },
    ]);
    await catalogDb(handle.db)
      .insertInto('api_document_texts')
      .values({ documentation_id: indexed, part: 'operation_index', seq: 0, body: '{}' })
      .execute();
    await expect(
      sql`insert into api_document_texts (documentation_id, part, seq, body)
        values (${indexed}, 'other', 0, '{}')`.execute(handle.db),
    ).rejects.toThrow(/api_document_texts_part_check/);
  } finally {
    await handle.close();
    await postgres?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);
