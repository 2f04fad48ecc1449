import { parse } from 'yaml';
import { ASSIGNABLE_ROLES } from '@portico/contracts/provider-roles';
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
    /** Provider roles besides the administrator (issue 27), e.g. [api_manager]. */
    providerRoles: z.array(z.enum(ASSIGNABLE_ROLES)).default([]),
  }),
);

/** Demo accounts from content/users.yaml: created once, never overwritten (users may change them). */
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
        isAdmin: u.administrator,
        emailVerified: true,
      });
      for (const role of created ? u.providerRoles : []) {
        await db.insertInto('provider_roles').values({ user_id: created!.id, role }).execute();
      }
      log.info({ email: u.email }, 'demo account created');
    }
  },
};
