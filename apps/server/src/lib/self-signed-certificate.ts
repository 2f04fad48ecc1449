// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { KeyObject, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * A self-signed X.509 v3 certificate (ECDSA P-256 with SHA-256) and its key, built with
 * @peculiar/x509 (the library the sandbox CA uses): the mutual-TLS port's default server
 * certificate (decision 049) and the test clients' certificates.
 */
export interface SelfSignedOptions {
  /** The subject, most significant first, e.g. [['C', 'NL'], ['O', 'Example'], ['CN', 'tpp']]. */
  subject: [string, string][];
  /** subjectAltName DNS names and IP addresses. */
  altNames?: string[];
  days?: number;
}

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** RFC 4514 string of the subject (values with special characters escaped). */
const distinguishedName = (subject: [string, string][]): string =>
  subject
    .map(([type, value]) => `${type}=${value.replace(/([,+"\\<>;=])/g, '\\$1')}`)
    .reverse()
    .join(', ');

export async function selfSignedCertificate(
  options: SelfSignedOptions,
): Promise<{ cert: string; key: string; privateKey: KeyObject }> {
  const keys = await crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const serial = randomBytes(12);
  serial[0] = serial[0]! & 0x7f; // a positive INTEGER
  const now = Date.now();
  const altNames = (options.altNames ?? []).map((n) =>
    isIP(n) ? { type: 'ip' as const, value: n } : { type: 'dns' as const, value: n },
  );
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial.toString('hex'),
    name: distinguishedName(options.subject),
    notBefore: new Date(now - 3600_000),
    notAfter: new Date(now + (options.days ?? 365) * 86_400_000),
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      ...(altNames.length ? [new x509.SubjectAlternativeNameExtension(altNames)] : []),
    ],
  });
  const privateKey = KeyObject.from(keys.privateKey);
  return {
    cert: certificate.toString('pem'),
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    privateKey,
  };
}
