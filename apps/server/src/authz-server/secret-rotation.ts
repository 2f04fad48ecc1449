import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import { errors, type default as Provider } from 'oidc-provider';
import { en } from '@portico/contracts/messages';
import type { Db } from '../db/client.ts';
import type { SecretBox } from '../lib/secret-box.ts';

/**
 * Client secrets with overlap (issue 28). `oauth_client_secrets` (migration 0300) holds every
 * secret of a confidential client; `oauth_clients.secret` is the current one (no expiry), the one
 * oidc-provider gets in the client's metadata and the application view shows. Rotate makes a new
 * current secret and gives the previous ones an expiry (the grace period); revoke ends one at
 * once; Reset Secret (clients.ts `resetSecret`) replaces them all. The token endpoint accepts the
 * current secret and every unexpired, unrevoked older one (`acceptRotatedSecrets`).
 */
export interface StoredClientSecret {
  id: string;
  clientId: string;
  createdAt: Date;
  /** Null for the current secret. */
  expiresAt: Date | null;
  current: boolean;
  expired: boolean;
}

export type SecretMatch = { state: 'valid' } | { state: 'expired'; expiresAt: Date } | { state: 'unknown' };

const newSecret = () => randomBytes(32).toString('base64url');
const digest = (s: string) => createHash('sha256').update(s).digest();

/** Compares two secrets in constant time (of their digests). */
export const sameSecret = (a: string, b: string): boolean => timingSafeEqual(digest(a), digest(b));

/** An ISO date-time without milliseconds: 2026-12-03T10:00:00Z. */
export const isoSeconds = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The error_description of an expired secret at the token endpoint. */
export const expiredSecretMessage = (expiresAt: Date): string =>
  en.clientSecrets.errors.expiredAtToken.replace('{{expiresAt}}', isoSeconds(expiresAt));

/**
 * Copies the current secret into `oauth_client_secrets` when it is not there (a client written
 * without this module, e.g. by an older instance during a rolling deployment).
 */
async function ensureCurrentRow(db: Db, clientId: string): Promise<void> {
  await sql`insert into oauth_client_secrets (client_id, secret, created_at)
    select c.client_id, c.secret, c.updated_at from oauth_clients c
    where c.client_id = ${clientId} and c.secret is not null
      and not exists (select 1 from oauth_client_secrets s
        where s.client_id = c.client_id and s.expires_at is null and s.revoked_at is null)`.execute(db);
}

/** Secret operations on a database handle or a transaction. */
export function clientSecretsRepo(db: Db, box: SecretBox) {
  return {
    /** Sets `secret` (sealed) as the client's only secret: a new client, a reset. */
    async replaceAll(clientId: string, sealed: string): Promise<void> {
      await db.deleteFrom('oauth_client_secrets').where('client_id', '=', clientId).execute();
      await db.insertInto('oauth_client_secrets').values({ client_id: clientId, secret: sealed }).execute();
    },

    /** The unrevoked secrets of a client, current first, then newest first. */
    async list(clientId: string, now = new Date()): Promise<StoredClientSecret[]> {
      await ensureCurrentRow(db, clientId);
      const rows = await db
        .selectFrom('oauth_client_secrets')
        .select(['uuid', 'client_id', 'created_at', 'expires_at'])
        .where('client_id', '=', clientId)
        .where('revoked_at', 'is', null)
        .orderBy(sql`expires_at is null`, 'desc')
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map((r) => {
        const expiresAt = r.expires_at ? new Date(r.expires_at) : null;
        return {
          id: r.uuid,
          clientId: r.client_id,
          createdAt: new Date(r.created_at),
          expiresAt,
          current: expiresAt === null,
          expired: expiresAt !== null && expiresAt.getTime() <= now.getTime(),
        };
      });
    },

    /**
     * A new current secret; every older unrevoked secret expires `graceSeconds` from `now` (or
     * earlier, if it already did). Undefined for an unknown or public client.
     */
    async rotate(
      clientId: string,
      graceSeconds: number,
      now = new Date(),
    ): Promise<{ secret: string; id: string; createdAt: Date; previousExpires: Date } | undefined> {
      const exists = await db
        .selectFrom('oauth_clients')
        .select('client_id')
        .where('client_id', '=', clientId)
        .where('secret', 'is not', null)
        .forUpdate()
        .executeTakeFirst();
      if (!exists) return undefined;
      await ensureCurrentRow(db, clientId);
      const previousExpires = new Date(now.getTime() + graceSeconds * 1000);
      await db
        .updateTable('oauth_client_secrets')
        .set({
          expires_at: sql<Date>`case when expires_at is not null and expires_at < ${previousExpires}
            then expires_at else ${previousExpires}::timestamptz end`,
        })
        .where('client_id', '=', clientId)
        .where('revoked_at', 'is', null)
        .execute();
      const secret = newSecret();
      const sealed = box.encrypt(secret);
      await db
        .updateTable('oauth_clients')
        .set({ secret: sealed, updated_at: now })
        .where('client_id', '=', clientId)
        .execute();
      const row = await db
        .insertInto('oauth_client_secrets')
        .values({ client_id: clientId, secret: sealed, created_at: now })
        .returning(['uuid', 'created_at'])
        .executeTakeFirstOrThrow();
      return { secret, id: row.uuid, createdAt: new Date(row.created_at), previousExpires };
    },

    /**
     * Revokes one older secret at once. 'unknown': no such unrevoked secret of this client;
     * 'current': the current secret (rotate or reset instead).
     */
    async revoke(clientId: string, id: string, now = new Date()): Promise<'revoked' | 'unknown' | 'current'> {
      const row = await db
        .selectFrom('oauth_client_secrets')
        .select(['id', 'expires_at'])
        .where('client_id', '=', clientId)
        .where('uuid', '=', id)
        .where('revoked_at', 'is', null)
        .forUpdate()
        .executeTakeFirst();
      if (!row) return 'unknown';
      if (row.expires_at === null) return 'current';
      await db
        .updateTable('oauth_client_secrets')
        .set({ revoked_at: now })
        .where('id', '=', row.id)
        .execute();
      return 'revoked';
    },

    /** Which of the client's unrevoked secrets `presented` is, compared in constant time. */
    async match(clientId: string, presented: string, now = new Date()): Promise<SecretMatch> {
      const rows = await db
        .selectFrom('oauth_client_secrets')
        .select(['secret', 'expires_at'])
        .where('client_id', '=', clientId)
        .where('revoked_at', 'is', null)
        .execute();
      const wanted = digest(presented);
      let found: SecretMatch = { state: 'unknown' };
      for (const row of rows) {
        if (!timingSafeEqual(wanted, digest(box.decrypt(row.secret)))) continue;
        const expiresAt = row.expires_at ? new Date(row.expires_at) : null;
        if (!expiresAt || expiresAt.getTime() > now.getTime()) return { state: 'valid' };
        found = { state: 'expired', expiresAt };
      }
      return found;
    },
  };
}

export type ClientSecretsRepo = ReturnType<typeof clientSecretsRepo>;

/**
 * Makes the provider's client authentication (client_secret_basic / client_secret_post) accept
 * any unexpired, unrevoked secret besides the current one: overrides `Client#compareClientSecret`
 * of this provider (each provider has its own Client class). An expired secret is refused with
 * `invalid_client` and a description naming the expiry; a revoked or unknown one with the
 * provider's plain `invalid_client`.
 */
export function acceptRotatedSecrets(provider: Provider, db: Db, box: SecretBox): void {
  const secrets = clientSecretsRepo(db, box);
  const proto = provider.Client.prototype;
  const compareCurrent = proto.compareClientSecret;
  proto.compareClientSecret = async function compareClientSecret(this: typeof proto, actual: string) {
    if (await compareCurrent.call(this, actual)) return true;
    const match = await secrets.match(this.clientId, actual);
    if (match.state === 'valid') return true;
    if (match.state === 'expired') {
      const err = new errors.InvalidClient(expiredSecretMessage(match.expiresAt));
      // RFC 6749 5.2: invalid_client answers 401.
      err.status = 401;
      err.statusCode = 401;
      throw err;
    }
    return false;
  };
}
