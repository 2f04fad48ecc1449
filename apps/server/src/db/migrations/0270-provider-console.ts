import { sql, type Kysely } from 'kysely';
import { trackDataChanges } from '../data-versions.ts';

/**
 * The provider console (issue 27, decision 045):
 * - `provider_roles`: the provider roles an administrator assigns besides the administrator
 *   itself (`users.is_admin`): API manager, content editor, support agent, go-live reviewer. The
 *   support staff of migration 0150 become support agents, and `support_staff` goes: one home for
 *   who may work the support queue. Changes count as identity changes, so that every instance's
 *   session cache (decision 028) sees a granted or withdrawn role at the next request.
 * - `users.blocked_at`: an administrator blocked the account (its sessions end, it cannot sign in,
 *   its applications' tokens are refused); `users.last_sign_in_at` for the console's user list.
 * - `audit_log`: append-only. Who (id and, frozen, the e-mail at the time: an account deleted
 *   later leaves its entries readable), when, what, on what, in which organization, before and
 *   after, and from which address. A trigger refuses every update, delete and truncate, for every
 *   caller of the database role the server uses, so no endpoint and no bug can rewrite history.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table provider_roles (
    user_id integer not null references users(id) on delete cascade,
    role text not null check (role in ('api_manager', 'content_editor', 'support_agent', 'go_live_reviewer')),
    granted_at timestamptz not null default now(),
    primary key (user_id, role)
  )`.execute(db);
  await sql`insert into provider_roles (user_id, role, granted_at)
    select user_id, 'support_agent', created from support_staff`.execute(db);
  await sql`drop table support_staff`.execute(db);
  await trackDataChanges(db, 'identity', ['provider_roles']);

  await sql`alter table users add column blocked_at timestamptz`.execute(db);
  await sql`alter table users add column last_sign_in_at timestamptz`.execute(db);

  await sql`create table audit_log (
    id bigserial primary key,
    at timestamptz not null default now(),
    actor_id integer,
    actor_email text,
    action text not null,
    target_type text not null,
    target_id text,
    target_label text,
    organization_id integer,
    before jsonb,
    after jsonb,
    ip text
  )`.execute(db);
  await sql`create index audit_log_at on audit_log (at desc, id desc)`.execute(db);
  await sql`create index audit_log_organization on audit_log (organization_id, at desc) where organization_id is not null`.execute(
    db,
  );
  await sql`create index audit_log_actor on audit_log (actor_id, at desc)`.execute(db);
  await sql`create index audit_log_action on audit_log (action, at desc)`.execute(db);
  await sql`create function portico_audit_log_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_log is append-only' using errcode = 'insufficient_privilege';
    end $$`.execute(db);
  await sql`create trigger audit_log_append_only before update or delete on audit_log
    for each row execute function portico_audit_log_append_only()`.execute(db);
  await sql`create trigger audit_log_no_truncate before truncate on audit_log
    for each statement execute function portico_audit_log_append_only()`.execute(db);
}
