import { sql, type Kysely } from 'kysely';
import { trackDataChanges } from '../data-versions.ts';

/**
 * Sandbox test certificates of an organization (issue 28, modules/certificates/README.md): a
 * QWAC-like (`qwac`, mutual TLS) or QSealC-like (`qseal`, signatures) certificate issued by the
 * sandbox CA, carrying the PSD2 QC statement (ETSI TS 119 495) with its roles and NCA. Only the
 * certificate is stored: the private key never reaches the server. An application may be linked
 * to one of its organization's certificates (`applications.psd2_certificate_id`): its PSD2 roles
 * then limit the application's subscriptions and scopes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table organization_certificates (
      id serial primary key,
      uuid uuid not null unique default gen_random_uuid(),
      organization_id integer not null references organizations(id) on delete cascade,
      kind text not null check (kind in ('qwac', 'qseal')),
      subject text not null,
      serial text not null unique,
      roles text[] not null,
      nca jsonb not null,
      pem text not null,
      not_before timestamptz not null,
      not_after timestamptz not null,
      revoked_at timestamptz,
      created_by integer references users(id) on delete set null,
      created timestamptz not null default now()
    )`.execute(db);
  await sql`create index organization_certificates_org on organization_certificates (organization_id)`.execute(
    db,
  );
  await sql`
    alter table applications add column psd2_certificate_id integer
      references organization_certificates(id) on delete set null`.execute(db);
  // A revoked certificate changes what its applications' clients may do: the gateway's and the
  // application pages' cached answers follow the applications counter (decision 018).
  await trackDataChanges(db, 'applications', ['organization_certificates']);
}
