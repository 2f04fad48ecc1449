import { en } from '@portico/contracts/messages';
import type { SupportStaffMember } from '@portico/contracts/support';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../lib/errors.ts';
import { supportDb } from './tables.ts';

const M = en.support;

/**
 * The accounts listed in `support_staff` (administrators are staff without a row: tickets.ts
 * isSupportStaff), managed by administrators on /admin/support/staff.
 */
export async function listStaff(app: FastifyInstance): Promise<SupportStaffMember[]> {
  const rows = await supportDb(app.db)
    .selectFrom('support_staff as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['u.uuid', 'u.name', 'u.email', 's.created'])
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
    .insertInto('support_staff')
    .values({ user_id: user.id })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .returning('created')
    .executeTakeFirst();
  if (!added) throw new HttpError(409, M.staffAlready, { pointer: '/email' });
  return memberJson({ ...user, created: added.created });
}

/** Ends an account's support staff listing; 404 when it is not listed (or no such account). */
export async function removeStaff(app: FastifyInstance, uuid: string): Promise<void> {
  const sdb = supportDb(app.db);
  const removed = await sdb
    .deleteFrom('support_staff')
    .where('user_id', '=', (eb) => eb.selectFrom('users').select('id').where('uuid', '=', uuid))
    .returning('user_id')
    .executeTakeFirst();
  if (!removed) throw new HttpError(404, M.staffNotFound);
}
