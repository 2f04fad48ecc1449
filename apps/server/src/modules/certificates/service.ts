import {
  CERTIFICATE_KINDS,
  SANDBOX_NCA,
  type CertificateKind,
  type CertificateResource,
  type IssueCertificateRequest,
  type Psd2Role,
} from '@portico/contracts/certificates';
import { en } from '@portico/contracts/messages';
import type { Db } from '../../db/client.ts';
import { isPsd2Role, PSD2_ROLES } from './psd2-statement.ts';
import { certDb, type CertificateRow } from './tables.ts';
import { CertificateInputError, issueCertificate, parseCsr, type SandboxCa } from './x509.ts';
import type { ErrorEntry } from '../../jsonapi/errors.ts';

const M = en.certificates;

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (m, key: string) => values[key] ?? m);

export function certificateStatus(row: CertificateRow, now = new Date()): 'active' | 'revoked' | 'expired' {
  if (row.revoked_at) return 'revoked';
  return new Date(row.not_after) < now ? 'expired' : 'active';
}

export function certificateResource(row: CertificateRow, now = new Date()): CertificateResource {
  return {
    type: 'organization_certificate',
    id: row.uuid,
    attributes: {
      kind: row.kind,
      subject: row.subject,
      serial: row.serial,
      roles: row.roles.filter(isPsd2Role),
      nca: row.nca,
      pem: row.pem,
      notBefore: new Date(row.not_before).toISOString(),
      notAfter: new Date(row.not_after).toISOString(),
      revokedAt: row.revoked_at ? new Date(row.revoked_at).toISOString() : null,
      created: new Date(row.created).toISOString(),
      status: certificateStatus(row, now),
    },
  };
}

export async function listCertificates(db: Db, organizationId: number): Promise<CertificateRow[]> {
  return certDb(db)
    .selectFrom('organization_certificates')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function findCertificate(
  db: Db,
  organizationId: number,
  uuid: string,
): Promise<CertificateRow | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(uuid)) return undefined;
  return certDb(db)
    .selectFrom('organization_certificates')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('uuid', '=', uuid.toLowerCase())
    .executeTakeFirst();
}

interface ValidRequest {
  kind: CertificateKind;
  roles: Psd2Role[];
  ncaName: string;
  ncaId: string;
  commonName: string | undefined;
}

/** The request's fields, or every problem with them (pointers into the JSON body). */
export function checkIssueRequest(body: IssueCertificateRequest): ValidRequest | ErrorEntry[] {
  const errors: ErrorEntry[] = [];
  if (!(CERTIFICATE_KINDS as readonly string[]).includes(body.kind))
    errors.push({ title: M.kindInvalid, pointer: '/kind' });
  const roles = [...new Set(body.roles)];
  if (!roles.length) errors.push({ title: M.rolesRequired, pointer: '/roles' });
  roles.forEach((role) => {
    if (!isPsd2Role(role))
      errors.push({ title: fill(M.roleUnknown, { role }), pointer: `/roles/${body.roles.indexOf(role)}` });
  });
  const ncaName = (body.ncaName ?? '').trim() || SANDBOX_NCA.name;
  const ncaId = (body.ncaId ?? '').trim() || SANDBOX_NCA.id;
  if (ncaName.length > 256) errors.push({ title: M.ncaNameInvalid, pointer: '/ncaName' });
  if (ncaId.length > 256) errors.push({ title: M.ncaIdInvalid, pointer: '/ncaId' });
  const commonName = body.commonName?.trim() || undefined;
  if (commonName && commonName.length > 64)
    errors.push({ title: M.commonNameTooLong, pointer: '/commonName' });
  if (errors.length) return errors;
  return {
    kind: body.kind as CertificateKind,
    // In the standard's order, whatever the request's.
    roles: PSD2_ROLES.filter((r) => roles.includes(r)),
    ncaName,
    ncaId,
    commonName,
  };
}

export interface IssueContext {
  db: Db;
  /** The sandbox CA, loaded (or made) before the transaction: see ca.ts. */
  ca: SandboxCa;
  organization: { id: number; title: string };
  userId: number;
}

/**
 * Issues a certificate for the CSR and stores it, in the caller's transaction. Throws
 * CertificateInputError for a CSR that cannot be used (nothing is stored then).
 */
export async function issue(
  ctx: IssueContext,
  request: ValidRequest,
  csrPem: string,
): Promise<CertificateRow> {
  const csr = await parseCsr(csrPem);
  const commonName = request.commonName ?? csr.commonName;
  if (!commonName) throw new CertificateInputError(M.csrNoCommonName, 'csr');
  if (commonName.length > 64) throw new CertificateInputError(M.commonNameTooLong, 'csr');
  const issued = await issueCertificate(ctx.ca, {
    kind: request.kind,
    roles: request.roles,
    ncaName: request.ncaName,
    ncaId: request.ncaId,
    commonName,
    organizationName: ctx.organization.title,
    publicKey: csr.publicKey,
  });
  return certDb(ctx.db)
    .insertInto('organization_certificates')
    .values({
      organization_id: ctx.organization.id,
      kind: request.kind,
      subject: issued.subject,
      serial: issued.serial,
      roles: request.roles,
      nca: JSON.stringify({ name: request.ncaName, id: request.ncaId }),
      pem: issued.certificate.toString('pem'),
      not_before: issued.notBefore,
      not_after: issued.notAfter,
      created_by: ctx.userId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function revoke(db: Db, row: CertificateRow, now = new Date()): Promise<CertificateRow> {
  return certDb(db)
    .updateTable('organization_certificates')
    .set({ revoked_at: now })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Why a certificate the sandbox CA issued no longer authenticates anyone (its serial, hex in any
 * case, revoked), or null: asked by the mutual-TLS port and the gateway on every use.
 */
export async function revocationOf(db: Db, serialHex: string): Promise<string | null> {
  const serial = serialHex.toLowerCase().replace(/^(00)+/, '');
  const row = await certDb(db)
    .selectFrom('organization_certificates')
    .select(['serial', 'revoked_at'])
    .where('serial', '=', serial)
    .executeTakeFirst();
  if (!row?.revoked_at) return null;
  return `the client certificate (sandbox certificate, serial ${row.serial}) was revoked at ${new Date(row.revoked_at).toISOString()}`;
}

// What the applications module needs of certificates: the PSD2 statements of a certificate it is
// given (applications/certificate.ts) and the certificates' table types (psd2-roles.ts, psd2.ts).
export { parseQcStatements, PSD2_QC_STATEMENT_OID, QC_STATEMENTS_OID } from './psd2-statement.ts';
export type { CertificateTables } from './tables.ts';
