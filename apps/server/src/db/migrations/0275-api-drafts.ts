import { sql, type Kysely } from 'kysely';

/**
 * New versions of APIs from the provider console (issue 27, decision 047):
 * - `api_drafts`: an uploaded document kept beside the published one until an API manager
 *   publishes it, with its review (change summary against the published version, operations,
 *   scopes, the changelog text it pre-fills) as JSON; publishing records when, by whom and the
 *   changelog entry it made.
 * - `application_notices`: what the provider told an application's organization about a breaking
 *   change to operations it called, shown on the application's page.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table api_drafts (
    id serial primary key,
    uuid uuid not null unique default gen_random_uuid(),
    documentation_alias text not null,
    product_alias text not null,
    title text not null,
    from_version text,
    to_version text,
    source text not null,
    source_filename text,
    source_spec_version text not null,
    review json not null,
    created_by integer references users(id) on delete set null,
    created timestamptz not null default now(),
    published_at timestamptz,
    published_by integer references users(id) on delete set null,
    change_log_entry_id integer references change_log_entries(id) on delete set null
  )`.execute(db);
  await sql`create index api_drafts_alias on api_drafts (documentation_alias, created desc)`.execute(db);

  await sql`create table application_notices (
    id serial primary key,
    uuid uuid not null unique default gen_random_uuid(),
    application_id integer not null references applications(id) on delete cascade,
    draft_id integer references api_drafts(id) on delete set null,
    api_alias text not null,
    api_title text not null,
    text text not null,
    endpoints json not null,
    created_by integer references users(id) on delete set null,
    created timestamptz not null default now()
  )`.execute(db);
  await sql`create index application_notices_application on application_notices (application_id, created desc)`.execute(
    db,
  );
  // Which applications called which operations lately: the audience of a notice.
  await sql`create index api_calls_alias_time on api_calls (api_alias, occurred_at)`.execute(db);
}
