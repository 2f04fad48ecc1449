import { sql, type Kysely } from 'kysely';

/**
 * The DPoP proofs the sandbox gateway has accepted (issue 28, gateway/dpop.ts): a proof's `jti`
 * is accepted once, on any instance, while the proof could still be fresh. `expires_at` is when
 * the proof falls out of the acceptance window; the gateway deletes rows past it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table dpop_proof_jtis (
    jkt text not null,
    jti text not null,
    expires_at timestamptz not null,
    primary key (jkt, jti)
  )`.execute(db);
  await sql`create index dpop_proof_jtis_expires_at on dpop_proof_jtis (expires_at)`.execute(db);
}
