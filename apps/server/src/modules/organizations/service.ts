import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { OWNER_ROLE } from './authz.ts';

/**
 * Creates an organization with its creator as the active owner (spec A 6: the creator always keeps
 * the owner role). Run it in a transaction: the organization and the membership exist together.
 */
export async function createOrganization(
  trx: Transaction<Database>,
  input: { title: string; description: string; creator: { id: number; email: string } },
) {
  const created = await trx
    .insertInto('organizations')
    .values({ title: input.title, description: input.description, creator_id: input.creator.id })
    .returningAll()
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('memberships')
    .values({
      organization_id: created.id,
      user_id: input.creator.id,
      email: input.creator.email,
      status: 'active',
      roles: [OWNER_ROLE],
      invited_by: null,
    })
    .execute();
  return created;
}

/** An organization a user belongs to, with its roles there (the console's user pages, issue 27). */
export interface UserOrganization {
  uuid: string;
  title: string;
  roles: string[];
}

/**
 * The organizations each of `userIds` is an active member of, by title (one query: the console's
 * user list asks for a page of users at once; memberships_user of migration 0020).
 */
export async function organizationsOfUsers(
  db: Kysely<Database>,
  userIds: readonly number[],
): Promise<Map<number, UserOrganization[]>> {
  const byUser = new Map<number, UserOrganization[]>();
  if (!userIds.length) return byUser;
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .select(['m.user_id', 'o.uuid', 'o.title', 'm.roles'])
    .where('m.user_id', 'in', [...userIds])
    .where('m.status', '=', 'active')
    .orderBy('o.title')
    .orderBy('o.id')
    .execute();
  for (const r of rows) {
    if (r.user_id === null) continue;
    const list = byUser.get(r.user_id) ?? [];
    list.push({ uuid: r.uuid, title: r.title, roles: r.roles });
    byUser.set(r.user_id, list);
  }
  return byUser;
}

// What other modules need of the organizations' authorization (authz.ts): they import it from here.
export {
  assertCan,
  can,
  effectiveRoles,
  loadOrgAccess,
  OWNER_ROLE,
  organizationDeleteGuards,
  permissionsFor,
  type OrgAccess,
  type OrganizationDeleteGuard,
  type Permission,
} from './authz.ts';
