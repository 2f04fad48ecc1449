import type { ColumnType, Generated, JSONColumnType, Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';

/** Kysely types of migration 0304-organization-certificates. */
export interface OrganizationCertificatesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  organization_id: number;
  kind: 'qwac' | 'qseal';
  /** RFC 4514 subject of the certificate. */
  subject: string;
  /** Hex, lower case. */
  serial: string;
  roles: string[];
  nca: JSONColumnType<{ name: string; id: string }, string, string>;
  pem: string;
  not_before: ColumnType<Date, Date | string, never>;
  not_after: ColumnType<Date, Date | string, never>;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_by: number | null;
  created: ColumnType<Date, Date | string | undefined, never>;
}

export type CertificateTables = { organization_certificates: OrganizationCertificatesTable };
export type CertificateRow = Selectable<OrganizationCertificatesTable>;

export function certDb(db: Db) {
  return db.withTables<CertificateTables>();
}
