import { generateKeyPairSync, sign } from 'node:crypto';

/**
 * Self-signed X.509 certificates for the PSD2 check, built with a small DER encoder and signed
 * with node:crypto (ECDSA P-256): with or without the PSD2 QC statement, valid, expired or not yet
 * valid.
 */
function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

export const seq = (...items: Buffer[]) => tlv(0x30, ...items);
const set = (...items: Buffer[]) => tlv(0x31, ...items);
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
const octets = (b: Buffer) => tlv(0x04, b);
const bitString = (b: Buffer) => tlv(0x03, Buffer.from([0]), b);
const explicit = (n: number, inner: Buffer) => tlv(0xa0 | n, inner);

export function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out: number[] = [a! * 40 + b!];
  for (const arc of rest) {
    const chunk: number[] = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

function integer(n: number): Buffer {
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  if (!bytes.length || bytes[0]! & 0x80) bytes.unshift(0);
  return tlv(0x02, Buffer.from(bytes));
}

/** UTCTime for 1950-2049, GeneralizedTime otherwise (RFC 5280 4.1.2.5). */
function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const year = d.getUTCFullYear();
  return year >= 1950 && year < 2050
    ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`))
    : tlv(0x18, Buffer.from(`${iso}Z`));
}

const name = (cn: string) => seq(set(seq(oid('2.5.4.3'), utf8(cn))));

/** The qcStatements extension value with the PSD2 statement (roles PSP_AS and PSP_PI). */
export function psd2QcStatements(): Buffer {
  const role = (id: string, label: string) => seq(oid(id), utf8(label));
  const psd2 = seq(
    oid('0.4.0.19495.2'),
    seq(
      seq(role('0.4.0.19495.1.1', 'PSP_AS'), role('0.4.0.19495.1.2', 'PSP_PI')),
      utf8('Test Financial Supervision Authority'),
      utf8('XX-TFSA'),
    ),
  );
  // id-etsi-qcs-QcCompliance as a second statement, as real QWACs carry it.
  return seq(seq(oid('0.4.0.1862.1.1')), psd2);
}

/** A qcStatements extension without the PSD2 statement (QcCompliance only). */
export function nonPsd2QcStatements(): Buffer {
  return seq(seq(oid('0.4.0.1862.1.1')));
}

export interface CertOptions {
  commonName?: string;
  notBefore?: Date;
  notAfter?: Date;
  /** The qcStatements extension value to include, or none. */
  qcStatements?: Buffer;
}

const DAY = 86_400_000;

/** A self-signed certificate in PEM. */
export function makeCertificate(options: CertOptions = {}): string {
  return buildCertificate(options).cert;
}

/**
 * A self-signed TLS server certificate for a loopback address (subjectAltName iPAddress) and its
 * private key, both in PEM: trust `cert` as a CA and https://<ip>:<port> is a valid server.
 */
export function makeServerCertificate(ip = '127.0.0.1'): { cert: string; key: string } {
  const san = seq(tlv(0x87, Buffer.from(ip.split('.').map(Number))));
  const { cert, privateKey } = buildCertificate({ commonName: ip, subjectAltName: san });
  return { cert, key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

function buildCertificate(options: CertOptions & { subjectAltName?: Buffer }) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const ecdsaSha256 = seq(oid('1.2.840.10045.4.3.2'));
  const extensions = [
    seq(oid('2.5.29.19'), octets(seq())), // basicConstraints: not a CA
    ...(options.qcStatements ? [seq(oid('1.3.6.1.5.5.7.1.3'), octets(options.qcStatements))] : []),
    ...(options.subjectAltName ? [seq(oid('2.5.29.17'), octets(options.subjectAltName))] : []),
  ];
  const subject = name(options.commonName ?? 'tpp.example');
  const tbs = seq(
    explicit(0, integer(2)), // v3
    integer(Math.floor(Math.random() * 1e9) + 1),
    ecdsaSha256,
    subject,
    seq(
      time(options.notBefore ?? new Date(Date.now() - DAY)),
      time(options.notAfter ?? new Date(Date.now() + 365 * DAY)),
    ),
    subject,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, seq(...extensions)),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = seq(tbs, ecdsaSha256, bitString(signature));
  const b64 = der.toString('base64').replace(/.{64}/g, '$&\n');
  const cert = `-----BEGIN CERTIFICATE-----\n${b64}${b64.endsWith('\n') ? '' : '\n'}-----END CERTIFICATE-----\n`;
  return { cert, privateKey };
}

export const certificates = {
  psd2: () => makeCertificate({ qcStatements: psd2QcStatements() }),
  expiredPsd2: () =>
    makeCertificate({
      qcStatements: psd2QcStatements(),
      notBefore: new Date(Date.now() - 400 * DAY),
      notAfter: new Date(Date.now() - 35 * DAY),
    }),
  futurePsd2: () =>
    makeCertificate({
      qcStatements: psd2QcStatements(),
      notBefore: new Date(Date.now() + 10 * DAY),
      notAfter: new Date(Date.now() + 400 * DAY),
    }),
  nonPsd2: () => makeCertificate({ qcStatements: nonPsd2QcStatements() }),
  plain: () => makeCertificate(),
};
