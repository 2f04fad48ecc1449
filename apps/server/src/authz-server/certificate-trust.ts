import { createHash, X509Certificate } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/client.ts';
import { OAUTH_TAG } from './provider.ts';

/**
 * The certificate authorities the mutual-TLS port trusts besides MTLS_CLIENT_CA (issue 28,
 * decision 053): the portal's sandbox CA, added by the certificates module at start. Each says
 * whether a certificate it issued was revoked; the token endpoint and the sandbox gateway refuse
 * a revoked one at once (client-auth.ts `refuseRevokedCertificates`, gateway/plugin.ts).
 */
export interface TrustedAuthority {
  /** The CA certificate, PEM. */
  certificate: string;
  /** Why a certificate this CA issued is no longer good (revoked), or null. */
  refusal(certificate: X509Certificate): Promise<string | null>;
}

export interface CertificateTrust {
  add(authority: TrustedAuthority): void;
  /** The trusted CA certificates (PEM), for the TLS layer's verification of client certificates. */
  caCertificates(): string[];
  /** Why the presented certificate is refused (issued by a trusted CA and revoked there), or null. */
  refusal(certificate: X509Certificate): Promise<string | null>;
}

export function createCertificateTrust(): CertificateTrust {
  const authorities: { authority: TrustedAuthority; ca: X509Certificate }[] = [];
  return {
    add(authority) {
      authorities.push({ authority, ca: new X509Certificate(authority.certificate) });
    },
    caCertificates: () => authorities.map((a) => a.authority.certificate),
    async refusal(certificate) {
      for (const { authority, ca } of authorities) {
        if (certificate.checkIssued(ca) && certificate.verify(ca.publicKey))
          return authority.refusal(certificate);
      }
      return null;
    },
  };
}

/** The RFC 8705 thumbprint (`x5t#S256`) of a certificate, PEM or DER. */
export function certificateThumbprint(certificate: string | Buffer): string {
  return createHash('sha256').update(new X509Certificate(certificate).raw).digest('base64url');
}

/**
 * Removes the authorization server's stored tokens bound to a certificate (`x5t#S256`): refresh
 * tokens (and access tokens, if ever stored) of its clients. JWT access tokens are not stored:
 * the gateway refuses them by the revoked certificate they are bound to.
 */
export async function revokeCertificateBoundTokens(db: Db, certificate: string): Promise<number> {
  const thumbprint = certificateThumbprint(certificate);
  const result = await db
    .deleteFrom('oidc_payloads')
    .where('model', 'in', [
      `${OAUTH_TAG}:AccessToken`,
      `${OAUTH_TAG}:RefreshToken`,
      `${OAUTH_TAG}:ClientCredentials`,
    ])
    .where(sql<string>`payload->>'x5t#S256'`, '=', thumbprint)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
