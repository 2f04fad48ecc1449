import type { Transaction } from 'kysely';
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
