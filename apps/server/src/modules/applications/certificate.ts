import { X509Certificate } from 'node:crypto';
import { parseQcStatements, PSD2_QC_STATEMENT_OID, QC_STATEMENTS_OID } from '../certificates/service.ts';

/**
 * The PSD2 certificate check of one file (spec A 3 'PSD certificate validation result'): an
 * X.509 certificate that parses, is within its validity dates and carries the PSD2 QC statement
 * (ETSI TS 119 495: statement 0.4.0.19495.2 inside the qcStatements extension
 * 1.3.6.1.5.5.7.1.3, RFC 3739). node:crypto parses the certificate but does not expose arbitrary
 * extensions, so the extension is found by walking the DER here; its value is parsed with the
 * asn1-schema structures of certificates/psd2-statement.ts.
 */
export { PSD2_QC_STATEMENT_OID, QC_STATEMENTS_OID };

export type CertificateProblem = 'unreadable' | 'expired' | 'not-yet-valid' | 'no-qc-statement';

export type CertificateCheck =
  | { ok: true; validTo: Date; subject: string; roles: string[] }
  | { ok: false; problem: CertificateProblem; date?: Date };

/** One DER element: its tag byte, and where its contents start and end in the buffer. */
interface Tlv {
  tag: number;
  start: number;
  end: number;
  /** Offset after the whole element. */
  next: number;
}

class DerError extends Error {
  override name = 'DerError';
}

function readTlv(buf: Uint8Array, offset: number, limit = buf.length): Tlv {
  if (offset + 2 > limit) throw new DerError('truncated');
  const tag = buf[offset]!;
  // Multi-byte tags do not occur in the structures read here.
  if ((tag & 0x1f) === 0x1f) throw new DerError('high tag number');
  let pos = offset + 1;
  let length = buf[pos++]!;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4) throw new DerError('unsupported length');
    length = 0;
    for (let i = 0; i < count; i++) {
      if (pos >= limit) throw new DerError('truncated');
      length = length * 256 + buf[pos++]!;
    }
  }
  const end = pos + length;
  if (end > limit) throw new DerError('length beyond the enclosing element');
  return { tag, start: pos, end, next: end };
}

/** The elements directly inside a constructed element. */
function children(buf: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  let pos = parent.start;
  while (pos < parent.end) {
    const child = readTlv(buf, pos, parent.end);
    out.push(child);
    pos = child.next;
  }
  return out;
}

const SEQUENCE = 0x30;
const OID = 0x06;
const OCTET_STRING = 0x04;
/** [3] EXPLICIT, constructed: the extensions of a TBSCertificate. */
const EXTENSIONS = 0xa3;

export function decodeOid(bytes: Uint8Array): string {
  if (!bytes.length) throw new DerError('empty OID');
  const parts: number[] = [];
  let value = 0;
  for (let i = 0; i < bytes.length; i++) {
    value = value * 128 + (bytes[i]! & 0x7f);
    if (!(bytes[i]! & 0x80)) {
      if (!parts.length) {
        // The first sub-identifier packs the first two arcs.
        const first = value < 40 ? 0 : value < 80 ? 1 : 2;
        parts.push(first, value - first * 40);
      } else parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

const oidOf = (buf: Uint8Array, tlv: Tlv) => decodeOid(buf.subarray(tlv.start, tlv.end));

/** The extensions of a DER certificate as (OID, extnValue contents) pairs. */
export function certificateExtensions(der: Uint8Array): { oid: string; value: Uint8Array }[] {
  const cert = readTlv(der, 0);
  if (cert.tag !== SEQUENCE) throw new DerError('not a certificate');
  const tbs = children(der, cert)[0];
  if (!tbs || tbs.tag !== SEQUENCE) throw new DerError('no TBSCertificate');
  const wrapper = children(der, tbs).find((c) => c.tag === EXTENSIONS);
  if (!wrapper) return [];
  const list = children(der, wrapper)[0];
  if (!list || list.tag !== SEQUENCE) throw new DerError('bad extensions');
  return children(der, list).map((ext) => {
    const parts = children(der, ext);
    const id = parts[0];
    const value = parts[parts.length - 1];
    if (!id || id.tag !== OID || !value || value.tag !== OCTET_STRING) throw new DerError('bad extension');
    return { oid: oidOf(der, id), value: der.subarray(value.start, value.end) };
  });
}

/**
 * The statements of a qcStatements extension value: statement OIDs, and for the PSD2 statement the
 * names of the PSP roles it grants (PSP_AS, PSP_PI, PSP_AI, PSP_IC). The one parser of the sandbox
 * certificates and real ones (certificates/psd2-statement.ts); throws on malformed DER.
 */
export function qcStatements(value: Uint8Array): { oid: string; roles: string[] }[] {
  const parsed = parseQcStatements(value);
  return parsed.statements.map((oid) => ({
    oid,
    roles: oid === PSD2_QC_STATEMENT_OID ? (parsed.psd2?.roles ?? []) : [],
  }));
}

/** Checks one uploaded file (PEM or DER) at `now`. */
export function checkPsd2Certificate(data: Buffer, now = new Date()): CertificateCheck {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(data);
  } catch {
    return { ok: false, problem: 'unreadable' };
  }
  const from = new Date(cert.validFrom);
  const to = new Date(cert.validTo);
  if (now < from) return { ok: false, problem: 'not-yet-valid', date: from };
  if (now > to) return { ok: false, problem: 'expired', date: to };
  let statements: { oid: string; roles: string[] }[] = [];
  try {
    const ext = certificateExtensions(cert.raw).find((e) => e.oid === QC_STATEMENTS_OID);
    if (ext) statements = qcStatements(ext.value);
  } catch {
    // A malformed extension is as good as none.
    statements = [];
  }
  const psd2 = statements.find((s) => s.oid === PSD2_QC_STATEMENT_OID);
  if (!psd2) return { ok: false, problem: 'no-qc-statement' };
  return { ok: true, validTo: to, subject: cert.subject, roles: psd2.roles };
}
