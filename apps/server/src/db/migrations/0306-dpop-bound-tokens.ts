import { sql, type Kysely } from 'kysely';

/**
 * Sender-constrained tokens and the FAPI 2.0 profile per client (issue 28, decision 051):
 * - `oauth_clients.dpop_bound_access_tokens`: the client's access tokens must be DPoP-bound
 *   (RFC 9449; oidc-provider's client metadata of the same name).
 * - `oauth_clients.fapi`: the client follows the FAPI 2.0 Security Profile (pushed authorization
 *   requests, PKCE S256, sender-constrained tokens, no client secret).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table oauth_clients add column dpop_bound_access_tokens boolean not null default false`.execute(
    db,
  );
  await sql`alter table oauth_clients add column fapi boolean not null default false`.execute(db);
}
