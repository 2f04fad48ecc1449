import { sql, type Kysely } from 'kysely';

/**
 * How an OAuth client authenticates at the token endpoint (issue 28, decision 049):
 * `oauth_clients.auth_method` (`client_secret`, the default: client_secret_basic or _post;
 * `private_key_jwt`; `tls_client_auth`; `self_signed_tls_client_auth`), the client's public keys
 * as a JWKS document (`jwks`, private_key_jwt and self_signed_tls_client_auth) or the URL the
 * authorization server fetches them from (`jwks_uri`), and the subject DN its certificate must
 * carry (`tls_subject_dn`, tls_client_auth).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table oauth_clients add column auth_method text not null default 'client_secret'`.execute(
    db,
  );
  await sql`alter table oauth_clients add column jwks jsonb`.execute(db);
  await sql`alter table oauth_clients add column jwks_uri text`.execute(db);
  await sql`alter table oauth_clients add column tls_subject_dn text`.execute(db);
  await sql`alter table oauth_clients add constraint oauth_clients_auth_method_check check (auth_method in ('client_secret', 'private_key_jwt', 'tls_client_auth', 'self_signed_tls_client_auth'))`.execute(
    db,
  );
}
