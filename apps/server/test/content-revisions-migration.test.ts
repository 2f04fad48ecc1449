import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { expect, test } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { migrateTo } from '../src/db/migrate.ts';
import { createPostgresDatabase, testDbKind } from './test-app.ts';

test('migration 0281 carries every revision of the four tables over into content_revisions and drops them', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-0281-'));
  const postgres = testDbKind() === 'postgres' ? await createPostgresDatabase() : undefined;
  const handle = await openDatabase({ dataDir, databaseUrl: postgres?.url });
  const db = handle.db;
  try {
    await migrateTo(db, '0280-site-content-editing');
    const user = (
      await sql<{ id: number }>`insert into users (email, name) values ('editor@example.com', 'Editor')
        returning id`.execute(db)
    ).rows[0]!.id;
    const one = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(db)).rows[0]!;
    const article = (await one(sql<{ id: number }>`insert into articles (title) values ('A') returning id`))
      .id;
    const faq = (
      await one(sql<{ id: number }>`insert into faqs (question, answer_html) values ('Q?', 'A') returning id`)
    ).id;
    const page = (
      await one(sql<{ id: number }>`insert into pages (alias, title) values ('/p', 'P') returning id`)
    ).id;
    await sql`insert into site_content (key, data) values ('block-layout', '{}'::jsonb)`.execute(db);
    await sql`insert into quickstart_stories (uuid, title, source_hash)
      values ('3f0c6a52-8d1e-4c7b-9a37-2f4b1e6d9c01', 'Tour', 'h')`.execute(db);
    const at = (n: number) => `2025-03-0${n}T10:00:00.000Z`;
    await sql`insert into article_revisions (article_id, version, author_id, author_email, created, fields) values
      (${article}, 1, ${user}, 'editor@example.com', ${at(1)}::timestamptz, '{"title":"A"}'::jsonb),
      (${article}, 2, null, null, ${at(2)}::timestamptz, '{"title":"A2"}'::jsonb)`.execute(db);
    await sql`insert into faq_revisions (faq_id, version, author_id, author_email, created, fields) values
      (${faq}, 1, ${user}, 'editor@example.com', ${at(3)}::timestamptz, '{"question":"Q?"}'::jsonb)`.execute(
      db,
    );
    await sql`insert into page_revisions (page_id, version, author_id, author_email, created, fields) values
      (${page}, 3, ${user}, 'editor@example.com', ${at(4)}::timestamptz, '{"title":"P"}'::jsonb)`.execute(db);
    await sql`insert into site_content_revisions (key, version, author_id, author_email, created, data) values
      ('block-layout', 1, ${user}, 'editor@example.com', ${at(5)}::timestamptz, '{"carousel":[]}'::jsonb)`.execute(
      db,
    );

    expect(await migrateTo(db, '0281-content-revisions')).toContain('0281-content-revisions');
    const rows = await sql<Record<string, unknown>>`select kind, item_id, item_key, version, author_id,
        author_email, to_char(created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI') as created, fields
      from content_revisions order by created, version`.execute(db);
    expect(rows.rows).toEqual([
      {
        kind: 'article',
        item_id: article,
        item_key: null,
        version: 1,
        author_id: user,
        author_email: 'editor@example.com',
        created: '2025-03-01T10:00',
        fields: { title: 'A' },
      },
      {
        kind: 'article',
        item_id: article,
        item_key: null,
        version: 2,
        author_id: null,
        author_email: null,
        created: '2025-03-02T10:00',
        fields: { title: 'A2' },
      },
      {
        kind: 'faq',
        item_id: faq,
        item_key: null,
        version: 1,
        author_id: user,
        author_email: 'editor@example.com',
        created: '2025-03-03T10:00',
        fields: { question: 'Q?' },
      },
      {
        kind: 'page',
        item_id: page,
        item_key: null,
        version: 3,
        author_id: user,
        author_email: 'editor@example.com',
        created: '2025-03-04T10:00',
        fields: { title: 'P' },
      },
      {
        kind: 'site_content',
        item_id: null,
        item_key: 'block-layout',
        version: 1,
        author_id: user,
        author_email: 'editor@example.com',
        created: '2025-03-05T10:00',
        fields: { carousel: [] },
      },
    ]);
    // The four tables are gone.
    for (const table of ['article_revisions', 'faq_revisions', 'page_revisions', 'site_content_revisions'])
      await expect(sql`select 1 from ${sql.table(table)}`.execute(db)).rejects.toThrow();
    // One revision per kind, item and version; an item is named by its id or its key, never both.
    await expect(
      sql`insert into content_revisions (kind, item_id, version, fields)
        values ('article', ${article}, 1, '{}'::jsonb)`.execute(db),
    ).rejects.toThrow(/content_revisions_id_version/);
    await expect(
      sql`insert into content_revisions (kind, item_key, version, fields)
        values ('site_content', 'block-layout', 1, '{}'::jsonb)`.execute(db),
    ).rejects.toThrow(/content_revisions_key_version/);
    await expect(
      sql`insert into content_revisions (kind, item_id, item_key, version, fields)
        values ('page', ${page}, 'x', 9, '{}'::jsonb)`.execute(db),
    ).rejects.toThrow(/content_revisions_item/);
    // The stories there are stay published, at version 1; pages and questions can be scheduled.
    expect(
      await one(
        sql<
          Record<string, unknown>
        >`select version, published, publish_at, edited_at from quickstart_stories`,
      ),
    ).toEqual({ version: 1, published: true, publish_at: null, edited_at: null });
    await sql`update pages set published = false, publish_at = now() where id = ${page}`.execute(db);
    await sql`update faqs set published = false, publish_at = now() where id = ${faq}`.execute(db);
  } finally {
    await handle.close();
    await postgres?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);
