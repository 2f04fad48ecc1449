import { sql } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../db/client.ts';
import { isStorableText } from '../lib/storable-text.ts';

/**
 * oidc-provider's storage in our database (instead of its in-memory default), so that sessions,
 * codes, grants and tokens survive restarts and are shared by every instance. One table serves
 * both issuers: ids are prefixed with the issuer's tag and the model name.
 */
export function createAdapterClass(db: Db, tag: string): new (name: string) => Adapter {
  return class DbAdapter implements Adapter {
    readonly name: string;
    readonly prefix: string;

    constructor(name: string) {
      this.name = name;
      this.prefix = `${tag}:${name}:`;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const expires = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      const row = {
        id: this.prefix + id,
        model: `${tag}:${this.name}`,
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        user_code: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expires_at: expires,
        consumed_at: null,
      };
      await db
        .insertInto('oidc_payloads')
        .values(row)
        .onConflict((oc) =>
          oc.column('id').doUpdateSet({
            payload: row.payload,
            grant_id: row.grant_id,
            user_code: row.user_code,
            uid: row.uid,
            expires_at: row.expires_at,
          }),
        )
        .execute();
    }

    private async findWhere(
      column: 'id' | 'uid' | 'user_code',
      value: string,
    ): Promise<AdapterPayload | undefined> {
      // Ids come from cookies, forms and tokens as sent: one PostgreSQL cannot hold matches nothing.
      if (!isStorableText(value)) return undefined;
      const row = await db
        .selectFrom('oidc_payloads')
        .select(['payload', 'consumed_at'])
        .where(column, '=', column === 'id' ? this.prefix + value : value)
        .where('model', '=', `${tag}:${this.name}`)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]))
        .executeTakeFirst();
      if (!row) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumed_at
        ? { ...payload, consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) }
        : payload;
    }

    find(id: string) {
      return this.findWhere('id', id);
    }

    findByUid(uid: string) {
      return this.findWhere('uid', uid);
    }

    findByUserCode(userCode: string) {
      return this.findWhere('user_code', userCode);
    }

    async consume(id: string): Promise<void> {
      await db
        .updateTable('oidc_payloads')
        .set({ consumed_at: sql`now()` })
        .where('id', '=', this.prefix + id)
        .execute();
    }

    async destroy(id: string): Promise<void> {
      await db
        .deleteFrom('oidc_payloads')
        .where('id', '=', this.prefix + id)
        .execute();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db
        .deleteFrom('oidc_payloads')
        .where('grant_id', '=', grantId)
        .where('model', 'like', `${tag}:%`)
        .execute();
    }
  };
}

/** Removes expired rows; called periodically. */
export async function sweepExpiredOidcPayloads(db: Db): Promise<void> {
  await db.deleteFrom('oidc_payloads').where('expires_at', '<', new Date()).execute();
}

/**
 * Ends everything an issuer holds for one account: its browser sessions (the provider's cookie
 * would otherwise sign the account in again silently), its grants, and every code and token issued
 * under them (access and refresh tokens, authorization codes). Records carry the account in
 * `payload.accountId`; tokens are also found through the grants they were issued under.
 */
export async function revokeAccount(db: Db, tag: string, accountId: string): Promise<void> {
  await db
    .deleteFrom('oidc_payloads')
    .where('model', 'like', `${tag}:%`)
    .where((eb) =>
      eb.or([
        eb(sql`payload->>'accountId'`, '=', accountId),
        eb(
          'grant_id',
          'in',
          eb
            .selectFrom('oidc_payloads as g')
            .select(sql<string>`g.payload->>'jti'`.as('jti'))
            .where('g.model', '=', `${tag}:Grant`)
            .where(sql`g.payload->>'accountId'`, '=', accountId),
        ),
      ]),
    )
    .execute();
}
