import { ASSIGNABLE_ROLES, PROVIDER_ROLES } from '@portico/contracts/provider-roles';
import { parse } from 'yaml';
import { z } from 'zod';
import type { ContentImporter } from '../../content/content-importer.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { displayName, usersRepo } from './users-repo.ts';

const usersFile = z.array(
  z.object({
    email: z.email(),
    password: z.string().min(8),
    firstName: z.string().min(1),
    lastName: z.string().min(1),
    administrator: z.boolean().default(false),
    /** Provider roles (issue 27): 'administrator' sets is_admin, the others are provider_roles rows. */
    roles: z.array(z.enum(PROVIDER_ROLES)).default([]),
  }),
);

/**
 * Demo accounts from content/users.yaml, with their provider roles: created once, never
 * overwritten (users may change them, an administrator may change their roles).
 */
export const usersImporter: ContentImporter = {
  name: 'users',
  async run({ db, read, log }) {
    const text = read('users.yaml');
    if (!text) return;
    const users = usersRepo(db);
    for (const u of usersFile.parse(parse(text))) {
      if (await users.findByEmail(u.email)) continue;
      const created = await users.create({
        email: u.email,
        name: displayName(u.firstName, u.lastName, u.email),
        firstName: u.firstName,
        lastName: u.lastName,
        passwordHash: await hashPassword(u.password),
        isAdmin: u.administrator || u.roles.includes('administrator'),
        emailVerified: true,
      });
      // Another instance created it a moment ago (create answers undefined on a taken address).
      if (!created) continue;
      const roles = ASSIGNABLE_ROLES.filter((r) => u.roles.includes(r));
      if (roles.length) {
        await db
          .insertInto('provider_roles')
          .values(roles.map((role) => ({ user_id: created.id, role })))
          .onConflict((oc) => oc.columns(['user_id', 'role']).doNothing())
          .execute();
      }
      log.info({ email: u.email }, 'demo account created');
    }
  },
};
