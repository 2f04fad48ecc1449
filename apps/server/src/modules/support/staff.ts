import { en } from '@portico/contracts/messages';
import type { SupportStaffMember } from '@portico/contracts/support';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../lib/errors.ts';
import { supportDb } from './tables.ts';

const M = en.support;

/**
 * The support agents (provider role `support_agent`, migration 0270; administrators are staff
 * without the role: tickets.ts isSupportStaff), managed by administrators on /admin/support/staff
 * and in the console's user pages.
 */
export async function listStaff(app: FastifyInstance): Promise<SupportStaffMember[]> {
  const rows = await supportDb(app.db)
    .selectFrom('provider_roles as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .where('s.role', '=', 'support_agent')
    .select(['u.uuid', 'u.name', 'u.email', 's.granted_at as created'])
    .orderBy('u.name')
    .orderBy('u.id')
    .execute();
  return rows.map(memberJson);
}

function memberJson(r: { uuid: string; name: string; email: string; created: Date }): SupportStaffMember {
  return { uuid: r.uuid, name: r.name, email: r.email, added: new Date(r.created).toISOString() };
}

/** Lists an existing account, found by its e-mail address (case-insensitive), as support staff. */
export async function addStaff(app: FastifyInstance, email: string): Promise<SupportStaffMember> {
  const sdb = supportDb(app.db);
  const user = await sdb
    .selectFrom('users')
    .select(['id', 'uuid', 'name', 'email', 'is_admin'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
  if (!user) throw new HttpError(404, M.staffUnknownUser, { pointer: '/email' });
  if (user.is_admin) throw new HttpError(409, M.staffIsAdmin, { pointer: '/email' });
  // Two administrators adding the same account at once: the primary key keeps one row.
  const added = await sdb
    .insertInto('provider_roles')
    .values({ user_id: user.id, role: 'support_agent' })
    .onConflict((oc) => oc.columns(['user_id', 'role']).doNothing())
    .returning('granted_at as created')
    .executeTakeFirst();
  if (!added) throw new HttpError(409, M.staffAlready, { pointer: '/email' });
  return memberJson({ ...user, created: added.created });
}

/** Ends an account's support staff listing; 404 when it is not listed (or no such account). */
export async function removeStaff(app: FastifyInstance, uuid: string): Promise<void> {
  const sdb = supportDb(app.db);
  const removed = await sdb
    .deleteFrom('provider_roles')
    .where('role', '=', 'support_agent')
    .where('user_id', '=', (eb) => eb.selectFrom('users').select('id').where('uuid', '=', uuid))
    .returning('user_id')
    .executeTakeFirst();
  if (!removed) throw new HttpError(404, M.staffNotFound);
}
