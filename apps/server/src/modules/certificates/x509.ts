// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { randomBytes, type webcrypto } from 'node:crypto';
import { en } from '@portico/contracts/messages';
import { encodeQcStatements, QC_STATEMENTS_OID, type Psd2Role } from './psd2-statement.ts';

export { x509 };

const M = en.certificates;

/** What a public key's algorithm tells (RSA: its size, EC: its curve). */
type KeyAlgorithm = { name: string; namedCurve?: string; modulusLength?: number };

/** The sandbox CA's signature: ECDSA P-256 with SHA-256. */
export const CA_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** A CSR refused, with the field at fault (`csr`, `commonName`). */
export class CertificateInputError extends Error {
  override name = 'CertificateInputError';
  readonly field: string;
  constructor(message: string, field: string) {
    super(message);
    this.field = field;
  }
}

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (m, key: string) => values[key] ?? m);

const PEM =
  /^-----BEGIN (NEW )?CERTIFICATE REQUEST-----\r?\n([A-Za-z0-9+/=\r\n]+)-----END (NEW )?CERTIFICATE REQUEST-----$/;

export interface ParsedCsr {
  publicKey: x509.PublicKey;
  /** The subject's common name, when the CSR has one. */
  commonName: string | undefined;
}

/** Describes a public key for the 'unsupported key' refusal (e.g. 'RSA 1024 bits', 'Ed25519'). */
function describeKey(algorithm: KeyAlgorithm): string {
  if (algorithm.name.startsWith('RSA')) return `RSA ${algorithm.modulusLength ?? '?'} bits`;
  if (algorithm.name === 'ECDSA' || algorithm.name === 'ECDH') return `EC ${algorithm.namedCurve ?? '?'}`;
  return algorithm.name;
}

function supported(algorithm: KeyAlgorithm): boolean {
  if (algorithm.name === 'RSASSA-PKCS1-v1_5' || algorithm.name === 'RSA-PSS')
    return (algorithm.modulusLength ?? 0) >= 2048;
  if (algorithm.name === 'ECDSA') return algorithm.namedCurve === 'P-256' || algorithm.namedCurve === 'P-384';
  return false;
}

/**
 * Reads and checks a PKCS #10 request in PEM: PEM armour, the request's structure, a supported key
 * and a signature that verifies with the request's own key. Throws CertificateInputError naming
 * what is wrong.
 */
export async function parseCsr(pem: string): Promise<ParsedCsr> {
  const text = pem.trim();
  if (!text) throw new CertificateInputError(M.csrRequired, 'csr');
  if (!PEM.test(text)) throw new CertificateInputError(M.csrNotPem, 'csr');
  let csr: x509.Pkcs10CertificateRequest;
  try {
    csr = new x509.Pkcs10CertificateRequest(text);
  } catch {
    throw new CertificateInputError(M.csrNotRequest, 'csr');
  }
  let algorithm: KeyAlgorithm;
  try {
    algorithm = csr.publicKey.algorithm;
  } catch {
    throw new CertificateInputError(fill(M.csrUnsupportedKey, { key: 'unknown algorithm' }), 'csr');
  }
  if (!supported(algorithm))
    throw new CertificateInputError(fill(M.csrUnsupportedKey, { key: describeKey(algorithm) }), 'csr');
  const valid = await csr.verify().catch(() => false);
  if (!valid) throw new CertificateInputError(M.csrBadSignature, 'csr');
  const commonName = csr.subjectName.getField('CN')[0]?.trim() || undefined;
  return { publicKey: csr.publicKey, commonName };
}

export interface SandboxCa {
  certificate: x509.X509Certificate;
  privateKey: webcrypto.CryptoKey;
}

export interface IssueInput {
  kind: 'qwac' | 'qseal';
  roles: readonly Psd2Role[];
  ncaName: string;
  ncaId: string;
  commonName: string;
  organizationName: string;
  publicKey: x509.PublicKey;
  now?: Date;
}

/** How long a sandbox certificate is valid. */
export const VALIDITY_DAYS = 365;

/** A positive serial number of 16 random bytes, as hex (RFC 5280 4.1.2.2: at most 20 octets). */
export function randomSerial(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return bytes.toString('hex');
}

/** Escapes a value for an RFC 4514 name string. */
function rdn(value: string): string {
  return value.replace(/([,+"\\<>;=#])/g, '\\$1').replace(/^ | $/g, (s) => `\\${s}`);
}

/**
 * Issues a QWAC-like or QSealC-like certificate for the CSR's key, signed by the sandbox CA: the
 * qcStatements extension (QcCompliance, qcType web or eseal, the PSD2 statement), key usages and,
 * for a QWAC, the TLS client and server purposes.
 */
export async function issueCertificate(ca: SandboxCa, input: IssueInput) {
  const now = input.now ?? new Date();
  const notBefore = new Date(now.getTime() - 60_000);
  const notAfter = new Date(now.getTime() + VALIDITY_DAYS * 86_400_000);
  const serial = randomSerial();
  const subject = `CN=${rdn(input.commonName)}, O=${rdn(input.organizationName)}, C=XX`;
  const isEc = input.publicKey.algorithm.name === 'ECDSA';
  const usages =
    input.kind === 'qwac'
      ? x509.KeyUsageFlags.digitalSignature | (isEc ? 0 : x509.KeyUsageFlags.keyEncipherment)
      : x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation;
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(usages, true),
    await x509.SubjectKeyIdentifierExtension.create(input.publicKey),
    await x509.AuthorityKeyIdentifierExtension.create(ca.certificate),
    new x509.Extension(
      QC_STATEMENTS_OID,
      false,
      encodeQcStatements({
        kind: input.kind,
        roles: input.roles,
        ncaName: input.ncaName,
        ncaId: input.ncaId,
      }),
    ),
  ];
  if (input.kind === 'qwac')
    extensions.push(
      new x509.ExtendedKeyUsageExtension([
        x509.ExtendedKeyUsage.clientAuth,
        x509.ExtendedKeyUsage.serverAuth,
      ]),
    );
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serial,
    subject,
    issuer: ca.certificate.subject,
    notBefore,
    notAfter,
    publicKey: input.publicKey,
    signingKey: ca.privateKey,
    signingAlgorithm: SIGNING,
    extensions,
  });
  return { certificate, serial, subject: certificate.subject, notBefore, notAfter };
}

/** A new sandbox CA: key pair and a self-signed certificate valid ten years. */
export async function createCa(name: string, now = new Date()) {
  const keys = await crypto.subtle.generateKey(CA_ALGORITHM, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + 10 * 365 * 86_400_000),
    keys,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certificate, privateKey: keys.privateKey };
}
