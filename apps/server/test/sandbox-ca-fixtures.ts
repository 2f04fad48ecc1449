import { X509Certificate, type webcrypto } from 'node:crypto';
import type { CertificateResource } from '@portico/contracts/certificates';
import { x509 } from '../src/modules/certificates/x509.ts';
import type { TestClient } from './http-client.ts';

/** A certificate the portal's sandbox CA issued, with its private key (PEM) as the TPP keeps it. */
export interface SandboxCertificate {
  uuid: string;
  serial: string;
  cert: string;
  key: string;
  /** Its subject as RFC 4514-like text ('CN=…,O=…,C=XX'): what tls_client_auth registers. */
  subjectDn: string;
}

const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/**
 * Has the organization's sandbox CA issue a certificate (POST /api/organizations/:org/certificates,
 * an owner's call) for a key made here, as the TPP's tooling or the portal's browser page does.
 */
export async function issueSandboxCertificate(
  owner: TestClient,
  org: string,
  options: { commonName?: string; kind?: 'qwac' | 'qseal'; roles?: string[] } = {},
): Promise<SandboxCertificate> {
  const keys = (await crypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: `CN=${options.commonName ?? 'tpp.example'}`,
    keys,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
  });
  const res = await owner.send(
    'POST',
    `/api/organizations/${org}/certificates`,
    { kind: options.kind ?? 'qwac', roles: options.roles ?? ['PSP_AI'], csr: csr.toString('pem') },
    'application/json',
  );
  if (res.status !== 201) throw new Error(`issuing a sandbox certificate: ${res.status} ${await res.text()}`);
  const { data } = (await res.json()) as { data: CertificateResource };
  const pkcs8 = Buffer.from(await crypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  const key = `-----BEGIN PRIVATE KEY-----\n${pkcs8.replace(/(.{64})/g, '$1\n').trim()}\n-----END PRIVATE KEY-----\n`;
  const cert = data.attributes.pem;
  return {
    uuid: data.id,
    serial: data.attributes.serial,
    cert,
    key,
    subjectDn: new X509Certificate(cert).subject.split('\n').join(','),
  };
}
