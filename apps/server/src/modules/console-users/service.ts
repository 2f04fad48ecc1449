import type { ConsoleUserAttributes, ConsoleUserDetail, UserSort } from '@portico/contracts/console-users';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import {
  ASSIGNABLE_ROLES,
  PROVIDER_ROLES,
  isProviderRole,
  type ProviderRole,
} from '@portico/contracts/provider-roles';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../lib/errors.ts';
import { applicationsOfUser } from '../applications/service.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { endEverySession } from '../identity/service.ts';
import { organizationsOfUsers } from '../organizations/service.ts';
import { ticketsOfUser } from '../support/service.ts';

/**
 * The console's user pages (issue 27, decision 045): every account with its organizations and
 * provider roles, blocking and unblocking, and the provider roles an administrator assigns. Every
 * change is audited in its own transaction, and none may leave the portal without an
 * administrator who can sign in.
 */
const M = en.console.users;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface UserRowLite {
  id: number;
  uuid: string;
  name: string;
  email: string;
  is_admin: boolean;
  blocked_at: Date | string | null;
  last_sign_in_at: Date | string | null;
  created_at: Date | string;
  roles: string | null;
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

/** The roles column of `selectUsers`: 'administrator' first, then provider_roles in order. */
function rolesOf(row: Pick<UserRowLite, 'is_admin' | 'roles'>): ProviderRole[] {
  const stored = (row.roles ?? '').split(',').filter(isProviderRole);
  return [...(row.is_admin ? (['administrator'] as const) : []), ...stored];
}

function selectUsers(db: Db) {
  return db.selectFrom('users as u').select([
    'u.id',
    'u.uuid',
    'u.name',
    'u.email',
    'u.is_admin',
    'u.blocked_at',
    'u.last_sign_in_at',
    'u.created_at',
    (eb) =>
      eb
        .selectFrom('provider_roles as r')
        .whereRef('r.user_id', '=', 'u.id')
        .select(sql<string>`string_agg(r.role, ',' order by r.role)`.as('roles'))
        .as('roles'),
  ]);
}

function attributes(row: UserRowLite, organizations: string[]): ConsoleUserAttributes {
  return {
    name: row.name,
    email: row.email,
    organizations,
    lastSignIn: iso(row.last_sign_in_at),
    created: iso(row.created_at)!,
    blocked: row.blocked_at !== null,
    blockedAt: iso(row.blocked_at),
    providerRoles: rolesOf(row),
  };
}

/** `%`, `_` and `\` match themselves in the search (LIKE's default escape is the backslash). */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface UserListQuery {
  q: string;
  sort: UserSort;
  limit: number;
  offset: number;
}

/**
 * A page of accounts, newest first (users_created) or by name (users_name_lower), whose name or
 * e-mail contains `q` (case-insensitive), with the count of all matches.
 */
export async function listUsers(db: Db, query: UserListQuery) {
  const pattern = `%${likeEscape(query.q.trim().toLowerCase())}%`;
  const search = query.q.trim() !== '';
  const matches = (eb: ExpressionBuilder<Database & { u: Database['users'] }, 'u'>) =>
    eb.or([
      eb(eb.fn('lower', ['u.name']), 'like', pattern),
      eb(eb.fn('lower', ['u.email']), 'like', pattern),
    ]);
  const page = selectUsers(db)
    .$if(search, (b) => b.where(matches))
    .$if(query.sort === 'name', (b) => b.orderBy(sql`lower(u.name)`).orderBy('u.id'))
    .$if(query.sort !== 'name', (b) => b.orderBy('u.created_at', 'desc').orderBy('u.id', 'desc'));
  const countQuery = db
    .selectFrom('users as u')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .$if(search, (b) => b.where(matches));
  const [rows, count] = await Promise.all([
    page.limit(query.limit).offset(query.offset).execute(),
    countQuery.executeTakeFirstOrThrow(),
  ]);
  const orgs = await organizationsOfUsers(
    db,
    rows.map((r) => r.id),
  );
  return {
    count: Number(count.n),
    users: rows.map((r) => ({
      id: r.uuid,
      attributes: attributes(
        r,
        (orgs.get(r.id) ?? []).map((o) => o.title),
      ),
    })),
  };
}

async function findUser(db: Db, uuid: string): Promise<UserRowLite> {
  const row = UUID.test(uuid)
    ? await selectUsers(db).where('u.uuid', '=', uuid.toLowerCase()).executeTakeFirst()
    : undefined;
  if (!row) throw new HttpError(404, M.notFound, { code: 'not_found' });
  return row;
}

/** One account with its organizations (and roles there), applications and support tickets. */
export async function userDetail(db: Db, uuid: string): Promise<ConsoleUserDetail['data']> {
  const row = await findUser(db, uuid);
  const [orgs, applications, tickets] = await Promise.all([
    organizationsOfUsers(db, [row.id]),
    applicationsOfUser(db, row.id),
    ticketsOfUser(db, row.id),
  ]);
  const memberships = orgs.get(row.id) ?? [];
  return {
    type: 'console--user',
    id: row.uuid,
    attributes: {
      ...attributes(
        row,
        memberships.map((m) => m.title),
      ),
      memberships,
      applications,
      tickets,
    },
  };
}

/**
 * The accounts that keep the portal administrable: administrators who are not blocked, locked
 * for the rest of the transaction so two administrators demoting each other at once cannot both
 * succeed.
 */
async function activeAdministrators(trx: Db): Promise<number[]> {
  const rows = await trx
    .selectFrom('users')
    .select('id')
    .where('is_admin', '=', true)
    .where('blocked_at', 'is', null)
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map((r) => r.id);
}

const lastAdministrator = () => new HttpError(409, M.lastAdministrator, { code: 'last_administrator' });

/** The user row locked for the change (404 when unknown). */
async function lockUser(trx: Db, uuid: string): Promise<UserRowLite> {
  const row = await findUser(trx, uuid);
  await trx.selectFrom('users').select('id').where('id', '=', row.id).forUpdate().execute();
  return findUser(trx, uuid);
}

/**
 * Blocks an account: `blocked_at`, and at once its portal sessions, its identity provider's
 * sessions, grants and tokens end (endEverySession), in one transaction with the audit entry.
 * Its applications' clients are refused from then on (applications' client gate).
 */
export async function blockUser(app: FastifyInstance, request: FastifyRequest, uuid: string): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    const row = await lockUser(trx, uuid);
    if (row.id === request.user!.id)
      throw new HttpError(409, M.cannotBlockSelf, { code: 'cannot_block_self' });
    if (row.blocked_at !== null) throw new HttpError(409, M.alreadyBlocked, { code: 'already_blocked' });
    if (row.is_admin) {
      const admins = await activeAdministrators(trx);
      if (admins.filter((id) => id !== row.id).length === 0) throw lastAdministrator();
    }
    const now = new Date();
    await trx
      .updateTable('users')
      .set({ blocked_at: now, updated_at: now })
      .where('id', '=', row.id)
      .execute();
    await endEverySession(trx, row);
    await recordAudit(trx, actorOf(request), {
      action: 'user.blocked',
      targetType: 'user',
      targetId: row.uuid,
      targetLabel: row.email,
      before: { blocked: false },
      after: { blocked: true, blockedAt: now.toISOString() },
    });
  });
  // The users' change counter makes every instance's cached client answers stale (authz-server/clients.ts);
  // this instance forgets them too.
  app.oauthClients.clearAccessCache();
}

/** Unblocks an account: it may sign in again, and its applications' clients work again. */
export async function unblockUser(
  app: FastifyInstance,
  request: FastifyRequest,
  uuid: string,
): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    const row = await lockUser(trx, uuid);
    if (row.blocked_at === null) throw new HttpError(409, M.notBlocked, { code: 'not_blocked' });
    await trx
      .updateTable('users')
      .set({ blocked_at: null, updated_at: new Date() })
      .where('id', '=', row.id)
      .execute();
    await recordAudit(trx, actorOf(request), {
      action: 'user.unblocked',
      targetType: 'user',
      targetId: row.uuid,
      targetLabel: row.email,
      before: { blocked: true, blockedAt: iso(row.blocked_at) },
      after: { blocked: false },
    });
  });
  app.oauthClients.clearAccessCache();
}

/** The body of PUT /admin-api/users/:uuid/roles: `{ "roles": [...] }`, each a provider role once. */
export function parseRoles(body: unknown): ProviderRole[] {
  const roles = (body as { roles?: unknown } | null | undefined)?.roles;
  const invalid = () =>
    new HttpError(400, format(M.rolesInvalid, { roles: PROVIDER_ROLES.join(', ') }), {
      code: 'invalid_roles',
      pointer: '/roles',
    });
  if (!Array.isArray(roles) || !roles.every(isProviderRole)) throw invalid();
  if (new Set(roles).size !== roles.length) throw invalid();
  return PROVIDER_ROLES.filter((r) => roles.includes(r));
}

/**
 * Replaces an account's provider roles ('administrator' = users.is_admin). Refused with 409, and
 * nothing changed, when it would leave no administrator who is not blocked. Both tables count as
 * identity changes, so every instance's session cache sees the new roles at the next request.
 */
export async function setRoles(
  app: FastifyInstance,
  request: FastifyRequest,
  uuid: string,
  wanted: readonly ProviderRole[],
): Promise<ProviderRole[]> {
  return app.db.transaction().execute(async (trx) => {
    const row = await lockUser(trx, uuid);
    const current = rolesOf(row);
    const before = PROVIDER_ROLES.filter((r) => current.includes(r));
    const admin = wanted.includes('administrator');
    if (row.is_admin && !admin && row.blocked_at === null) {
      const admins = await activeAdministrators(trx);
      if (admins.filter((id) => id !== row.id).length === 0) throw lastAdministrator();
    }
    if (row.is_admin !== admin) {
      await trx
        .updateTable('users')
        .set({ is_admin: admin, updated_at: new Date() })
        .where('id', '=', row.id)
        .execute();
    }
    const assignable = ASSIGNABLE_ROLES.filter((r) => wanted.includes(r));
    const removed = ASSIGNABLE_ROLES.filter((r) => before.includes(r) && !assignable.includes(r));
    if (removed.length) {
      await trx
        .deleteFrom('provider_roles')
        .where('user_id', '=', row.id)
        .where('role', 'in', removed)
        .execute();
    }
    const added = assignable.filter((r) => !before.includes(r));
    if (added.length) {
      await trx
        .insertInto('provider_roles')
        .values(added.map((role) => ({ user_id: row.id, role })))
        .execute();
    }
    const after = PROVIDER_ROLES.filter((r) => wanted.includes(r));
    if (before.join() !== after.join()) {
      await recordAudit(trx, actorOf(request), {
        action: 'user.roles_changed',
        targetType: 'user',
        targetId: row.uuid,
        targetLabel: row.email,
        before: { roles: before },
        after: { roles: after },
      });
    }
    return after;
  });
}
