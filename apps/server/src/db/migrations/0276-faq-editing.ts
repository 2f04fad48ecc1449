import { sql, type Kysely } from 'kysely';

/**
 * The FAQ edited in the provider console (issue 27, modules/content/README.md 'Console: FAQ'):
 * - `faqs.answer_markdown`: the Markdown the answer is written in (faq.yaml's format); the console
 *   edits it and `answer_html` stays its sanitized rendering.
 * - `faqs.version`: raised by every save; an update names the version it started from, and a
 *   stale one is refused (optimistic concurrency).
 * - `faqs.published`: a draft question is on no public list and not in the site search.
 * - `faqs.edited_at`: the last save through the console; the content import never replaces or
 *   removes a question edited in the browser.
 * - `faq_revisions`: every save's fields, who saved and when.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table faqs add column answer_markdown text`.execute(db);
  await sql`alter table faqs add column version integer not null default 1`.execute(db);
  await sql`alter table faqs add column published boolean not null default true`.execute(db);
  await sql`alter table faqs add column edited_at timestamptz`.execute(db);
  await sql`create table faq_revisions (
    id serial primary key,
    faq_id integer not null references faqs(id) on delete cascade,
    version integer not null,
    author_id integer references users(id) on delete set null,
    author_email text,
    created timestamptz not null default now(),
    fields jsonb not null,
    unique (faq_id, version)
  )`.execute(db);
}
