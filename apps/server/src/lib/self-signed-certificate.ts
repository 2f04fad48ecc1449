import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * A self-signed X.509 v3 certificate (ECDSA P-256 with SHA-256) and its key, for the mutual-TLS
 * port's default server certificate (decision 049). node:crypto signs and parses certificates but
 * does not build them, so the few DER structures of RFC 5280 needed here are encoded below.
 */
function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, ...content: Buffer[]): Buffer => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const seq = (...items: Buffer[]) => tlv(0x30, ...items);
const set = (...items: Buffer[]) => tlv(0x31, ...items);
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
const printable = (s: string) => tlv(0x13, Buffer.from(s, 'ascii'));
const octets = (b: Buffer) => tlv(0x04, b);
const bitString = (b: Buffer) => tlv(0x03, Buffer.from([0]), b);
const explicit = (n: number, inner: Buffer) => tlv(0xa0 | n, inner);

function oid(dotted: string): Buffer {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number);
  const out: number[] = [a * 40 + b];
  for (const arc of rest) {
    const chunk: number[] = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime for 1950-2049, GeneralizedTime otherwise (RFC 5280 4.1.2.5). */
function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const year = d.getUTCFullYear();
  return year >= 1950 && year < 2050
    ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`))
    : tlv(0x18, Buffer.from(`${iso}Z`));
}

/** Attribute types a subject may use here (RFC 4514 names). */
const ATTRIBUTES: Record<string, string> = {
  CN: '2.5.4.3',
  O: '2.5.4.10',
  OU: '2.5.4.11',
  C: '2.5.4.6',
  L: '2.5.4.7',
  ST: '2.5.4.8',
  organizationIdentifier: '2.5.4.97',
};

export interface SelfSignedOptions {
  /** The subject, most significant first, e.g. [['C', 'NL'], ['O', 'Example'], ['CN', 'tpp']]. */
  subject: [string, string][];
  /** subjectAltName DNS names and IP addresses (IPv4). */
  altNames?: string[];
  days?: number;
}

export function selfSignedCertificate(options: SelfSignedOptions): {
  cert: string;
  key: string;
  privateKey: KeyObject;
} {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const ecdsaSha256 = seq(oid('1.2.840.10045.4.3.2'));
  const name = seq(
    ...options.subject.map(([type, value]) => {
      const id = ATTRIBUTES[type];
      if (!id) throw new Error(`unsupported subject attribute ${type}`);
      return set(seq(oid(id), type === 'C' ? printable(value) : utf8(value)));
    }),
  );
  const altNames = (options.altNames ?? []).map((n) =>
    isIP(n) === 4 ? tlv(0x87, Buffer.from(n.split('.').map(Number))) : tlv(0x82, Buffer.from(n, 'ascii')),
  );
  const extensions = [
    seq(oid('2.5.29.19'), octets(seq())), // basicConstraints: not a CA
    ...(altNames.length ? [seq(oid('2.5.29.17'), octets(seq(...altNames)))] : []),
  ];
  const serial = randomBytes(12);
  serial[0] = serial[0]! & 0x7f; // a positive INTEGER
  const now = Date.now();
  const tbs = seq(
    explicit(0, tlv(0x02, Buffer.from([2]))), // v3
    tlv(0x02, serial),
    ecdsaSha256,
    name,
    seq(time(new Date(now - 3600_000)), time(new Date(now + (options.days ?? 365) * 86_400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, seq(...extensions)),
  );
  const der = seq(tbs, ecdsaSha256, bitString(sign('sha256', tbs, privateKey)));
  const b64 = der.toString('base64').replace(/.{64}/g, '$&\n');
  const cert = `-----BEGIN CERTIFICATE-----\n${b64}${b64.endsWith('\n') ? '' : '\n'}-----END CERTIFICATE-----\n`;
  return { cert, key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), privateKey };
}
