import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { certificates, makeCertificate, oid, seq, tlv } from '../../../test/applications-certs.ts';
import { CERT_PEM } from '../../../test/org-fixtures.ts';
import {
  PSD2_QC_STATEMENT_OID,
  QC_STATEMENTS_OID,
  certificateExtensions,
  checkPsd2Certificate,
  decodeOid,
  qcStatements,
} from './certificate.ts';

describe('PSD2 certificate check', () => {
  it('decodes object identifiers, including multi-byte arcs', () => {
    for (const dotted of ['0.4.0.19495.2', '1.3.6.1.5.5.7.1.3', '2.5.29.19', '1.2.840.10045.4.3.2']) {
      const der = oid(dotted);
      expect(decodeOid(der.subarray(2))).toBe(dotted);
    }
  });

  it('accepts a valid certificate with the PSD2 QC statement and reads its roles', () => {
    const pem = certificates.psd2();
    // The generated certificate is a real one: node:crypto verifies its self-signature.
    const cert = new X509Certificate(pem);
    expect(cert.verify(cert.publicKey)).toBe(true);
    const result = checkPsd2Certificate(Buffer.from(pem));
    expect(result).toMatchObject({ ok: true, roles: ['PSP_AS', 'PSP_PI'] });
  });

  it('accepts the certificate in DER form too', () => {
    const der = new X509Certificate(certificates.psd2()).raw;
    expect(checkPsd2Certificate(der).ok).toBe(true);
  });

  it('finds the qcStatements extension among the others', () => {
    const der = new X509Certificate(certificates.psd2()).raw;
    const oids = certificateExtensions(der).map((e) => e.oid);
    expect(oids).toEqual(['2.5.29.19', QC_STATEMENTS_OID]);
    const value = certificateExtensions(der)[1]!.value;
    expect(qcStatements(value).map((s) => s.oid)).toEqual(['0.4.0.1862.1.1', PSD2_QC_STATEMENT_OID]);
  });

  it('refuses an expired and a not yet valid certificate', () => {
    expect(checkPsd2Certificate(Buffer.from(certificates.expiredPsd2()))).toMatchObject({
      ok: false,
      problem: 'expired',
    });
    expect(checkPsd2Certificate(Buffer.from(certificates.futurePsd2()))).toMatchObject({
      ok: false,
      problem: 'not-yet-valid',
    });
  });

  it('refuses certificates without the PSD2 statement', () => {
    expect(checkPsd2Certificate(Buffer.from(certificates.nonPsd2()))).toMatchObject({
      ok: false,
      problem: 'no-qc-statement',
    });
    expect(checkPsd2Certificate(Buffer.from(certificates.plain()))).toMatchObject({
      ok: false,
      problem: 'no-qc-statement',
    });
    expect(checkPsd2Certificate(Buffer.from(CERT_PEM))).toMatchObject({
      ok: false,
      problem: 'no-qc-statement',
    });
  });

  it('does not accept the PSD2 OID outside the qcStatements extension', () => {
    // The statement's OID bytes inside another extension must not count (no byte search).
    const pem = makeCertificate({ qcStatements: undefined, commonName: '0.4.0.19495.2' });
    expect(checkPsd2Certificate(Buffer.from(pem))).toMatchObject({ ok: false, problem: 'no-qc-statement' });
  });

  it('refuses files that are not certificates, and a malformed extension', () => {
    expect(checkPsd2Certificate(Buffer.from('hello'))).toMatchObject({ ok: false, problem: 'unreadable' });
    expect(() => qcStatements(tlv(0x04, Buffer.from([1, 2])))).toThrow();
    expect(() => qcStatements(seq(tlv(0x02, Buffer.from([1]))))).toThrow();
  });

  it('checks the validity against the given time', () => {
    const pem = Buffer.from(certificates.psd2());
    expect(checkPsd2Certificate(pem, new Date(Date.now() + 2 * 365 * 86_400_000))).toMatchObject({
      ok: false,
      problem: 'expired',
    });
  });
});
