import type {
  CertificateKind,
  CertificateListDocument,
  CertificateResource,
  IssueCertificateRequest,
} from '@portico/contracts/certificates';
import { apiRequest } from '../../lib/api-client';

/**
 * The sandbox certificates calls (apps/server/src/modules/certificates/README.md) and their query
 * keys.
 */
export const certificateKeys = {
  list: (org: string) => ['organizations', org, 'certificates'] as const,
};

export function listCertificates(org: string): Promise<CertificateListDocument> {
  return apiRequest<CertificateListDocument>(`/api/organizations/${encodeURIComponent(org)}/certificates`);
}

export async function issueCertificate(
  org: string,
  request: IssueCertificateRequest,
): Promise<CertificateResource> {
  const doc = await apiRequest<{ data: CertificateResource }>(
    `/api/organizations/${encodeURIComponent(org)}/certificates`,
    { method: 'POST', body: request, format: 'json' },
  );
  return doc.data;
}

export async function revokeCertificate(org: string, id: string): Promise<CertificateResource> {
  const doc = await apiRequest<{ data: CertificateResource }>(
    `/api/organizations/${encodeURIComponent(org)}/certificates/${encodeURIComponent(id)}/revoke`,
    { method: 'POST' },
  );
  return doc.data;
}

/** Saves text as a file the browser downloads. */
export function downloadText(filename: string, text: string, type = 'application/x-pem-file'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export const kindKey = (kind: CertificateKind) =>
  kind === 'qwac' ? 'certificates.kindQwac' : 'certificates.kindQseal';
