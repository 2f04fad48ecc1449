import type { ProviderRole } from '@portico/contracts/provider-roles';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { UsersTable } from '../../db/schema.ts';
import { addressProven } from './address-proven.ts';

export type UserRow = Selectable<UsersTable>;

/** A new account's fields (usersRepo.create). */
export interface NewUser {
  email: string;
  name: string;
  firstName: string | null;
  lastName: string | null;
  passwordHash: string | null;
  isAdmin?: boolean;
  externalIssuer?: string | null;
  externalSubject?: string | null;
  emailVerified?: boolean;
  /** The language the account was created in (issue 30): its e-mails are written in it. */
  preferredLangcode?: string | null;
}

/** Users by the keys the identity code needs. E-mail comparisons ignore case. */
export function usersRepo(db: Db) {
  return {
    findByEmail(email: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
        .executeTakeFirst();
    },
    findByUuid(uuid: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('uuid', '=', uuid).executeTakeFirst();
    },
    findById(id: number): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** The user's provider roles: 'administrator' for `is_admin`, then `provider_roles` (issue 27). */
    async providerRoles(user: Pick<UserRow, 'id' | 'is_admin'>): Promise<ProviderRole[]> {
      const rows = await db
        .selectFrom('provider_roles')
        .select('role')
        .where('user_id', '=', user.id)
        .orderBy('role')
        .execute();
      return [...(user.is_admin ? (['administrator'] as const) : []), ...rows.map((r) => r.role)];
    },
    findByExternal(issuer: string, subject: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('external_issuer', '=', issuer)
        .where('external_subject', '=', subject)
        .executeTakeFirst();
    },
    /**
     * Inserts a user; returns undefined when the e-mail is taken (unique index on lower(email)). An
     * account created with a proven address gets what was sent to it in the same transaction
     * (address-proven.ts).
     */
    async create(values: NewUser): Promise<UserRow | undefined> {
      if (!values.emailVerified) return insertUser(db, values);
      const insert = async (trx: Db) => {
        const created = await insertUser(trx, values);
        if (created) await addressProven(trx, created);
        return created;
      };
      return db.isTransaction ? insert(db) : db.transaction().execute(insert);
    },
  };
}

function insertUser(db: Db, values: NewUser): Promise<UserRow | undefined> {
  return (
    db
      .insertInto('users')
      .values({
        email: values.email.trim(),
        name: values.name,
        first_name: values.firstName,
        last_name: values.lastName,
        password_hash: values.passwordHash,
        is_admin: values.isAdmin ?? false,
        external_issuer: values.externalIssuer ?? null,
        external_subject: values.externalSubject ?? null,
        email_verified: values.emailVerified ?? false,
        preferred_langcode: values.preferredLangcode ?? null,
        completed_stories: JSON.stringify([]),
      })
      // The only unique key a new row can hit is lower(email): a taken address gives no row.
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst()
  );
}

/** The display name: first and last name, else the e-mail's local part. */
export function displayName(firstName: string | null, lastName: string | null, email: string): string {
  const full = [firstName, lastName]
    .filter((x) => x && x.trim())
    .join(' ')
    .trim();
  return full || email.split('@')[0] || email;
}
