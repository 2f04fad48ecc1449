import { z } from 'zod';

/**
 * Sandbox test certificates of an organization (issue 28, server modules/certificates/README.md).
 *
 * GET  /api/organizations/{org}/certificates              list, meta.ca (the sandbox CA), meta.canIssue
 * POST /api/organizations/{org}/certificates              issue from a CSR (owners)
 * POST /api/organizations/{org}/certificates/{id}/revoke  revoke (owners)
 * GET  /api/sandbox/ca.pem                                the sandbox CA certificate (public)
 * PUT  /api/applications/{id}/psd2-certificate            link a certificate to an application
 */
export const PSD2_ROLES = ['PSP_AS', 'PSP_PI', 'PSP_AI', 'PSP_IC'] as const;
export type Psd2Role = (typeof PSD2_ROLES)[number];
export const CERTIFICATE_KINDS = ['qwac', 'qseal'] as const;
export type CertificateKind = (typeof CERTIFICATE_KINDS)[number];

/** The NCA written into sandbox certificates unless the form names another. */
export const SANDBOX_NCA = { name: 'Sandbox Financial Supervisory Authority', id: 'XX-SFSA' } as const;

/** `organization_certificate` resource attributes. */
export interface CertificateAttributes {
  kind: CertificateKind;
  subject: string;
  serial: string;
  roles: Psd2Role[];
  nca: { name: string; id: string };
  pem: string;
  notBefore: string;
  notAfter: string;
  revokedAt: string | null;
  created: string;
  /** active, revoked or expired, at the time of the answer. */
  status: 'active' | 'revoked' | 'expired';
}

export interface CertificateResource {
  type: 'organization_certificate';
  id: string;
  attributes: CertificateAttributes;
}

export interface SandboxCaInfo {
  subject: string;
  notAfter: string;
  pem: string;
}

export interface CertificateListDocument {
  data: CertificateResource[];
  meta: { ca: SandboxCaInfo; canIssue: boolean; organization: { id: string; label: string } };
}

/** The issue request body (JSON). Roles and kind are checked by the server with precise errors. */
export const issueCertificateSchema = z.object({
  kind: z.string(),
  roles: z.array(z.string()),
  csr: z.string(),
  commonName: z.string().optional(),
  ncaName: z.string().optional(),
  ncaId: z.string().optional(),
});
export type IssueCertificateRequest = z.infer<typeof issueCertificateSchema>;

/** The application's certificate: its uuid, or null to unlink. */
export const applicationCertificateSchema = z.object({ certificate: z.string().uuid().nullable() });
