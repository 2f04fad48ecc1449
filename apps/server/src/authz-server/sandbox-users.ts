import type { Selectable } from 'kysely';
import { parse } from 'yaml';
import { z } from 'zod';
import type { ContentImporter } from '../content/content-importer.ts';
import type { Db } from '../db/client.ts';
import type { SandboxUsersTable } from '../db/schema.ts';
import { hashPassword } from '../lib/passwords.ts';

export type SandboxUser = Selectable<SandboxUsersTable>;

/** The sandbox's demo bank customers (the resource owners of the authorization_code flow). */
export function sandboxUsersRepo(db: Db) {
  return {
    findByUsername(username: string): Promise<SandboxUser | undefined> {
      return db
        .selectFrom('sandbox_users')
        .selectAll()
        .where((eb) => eb(eb.fn('lower', ['username']), '=', username.trim().toLowerCase()))
        .executeTakeFirst();
    },
    findByUuid(uuid: string): Promise<SandboxUser | undefined> {
      return db.selectFrom('sandbox_users').selectAll().where('uuid', '=', uuid).executeTakeFirst();
    },
    async create(values: {
      username: string;
      passwordHash: string;
      name: string;
      email: string | null;
    }): Promise<void> {
      await db
        .insertInto('sandbox_users')
        .values({
          username: values.username,
          password_hash: values.passwordHash,
          name: values.name,
          email: values.email,
        })
        .execute();
    },
  };
}

const sandboxUsersFile = z.array(
  z.object({
    username: z.string().min(1).max(100),
    password: z.string().min(8),
    name: z.string().min(1),
    email: z.email().optional(),
  }),
);

/** Sandbox customers from content/sandbox-users.yaml: created once, never overwritten. */
export const sandboxUsersImporter: ContentImporter = {
  name: 'sandbox-users',
  async run({ db, read, log }) {
    const text = read('sandbox-users.yaml');
    if (!text) return;
    const repo = sandboxUsersRepo(db);
    for (const u of sandboxUsersFile.parse(parse(text))) {
      if (await repo.findByUsername(u.username)) continue;
      await repo.create({
        username: u.username,
        passwordHash: await hashPassword(u.password),
        name: u.name,
        email: u.email ?? null,
      });
      log.info({ username: u.username }, 'sandbox customer created');
    }
  },
};
