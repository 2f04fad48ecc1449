import { describe, expect, it } from 'vitest';
import { contentMatches, extensionAllowed, extensionOf, fileNameFromDisposition } from './uploads.ts';

describe('organization uploads', () => {
  it('reads the file name of Content-Disposition and keeps only a safe base name', () => {
    expect(fileNameFromDisposition('file; filename="report.pdf"')).toBe('report.pdf');
    expect(fileNameFromDisposition('file; filename=report.pdf')).toBe('report.pdf');
    expect(fileNameFromDisposition(`file; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`)).toBe('résumé.pdf');
    expect(fileNameFromDisposition('file; filename="../../etc/passwd"')).toBe('passwd');
    expect(fileNameFromDisposition('file; filename="C:\\\\Users\\\\me\\\\cert.pem"')).toBe('cert.pem');
    expect(fileNameFromDisposition('file; filename="a\\"b.txt"')).toBe('ab.txt');
    expect(fileNameFromDisposition('file; filename=".."')).toBeUndefined();
    // Bidirectional overrides, zero-width and other invisible characters go, as do C1 controls.
    expect(fileNameFromDisposition(`file; filename*=UTF-8''invoice%E2%80%AEfdp.exe`)).toBe('invoicefdp.exe');
    expect(fileNameFromDisposition(`file; filename*=UTF-8''a%E2%80%8Bb%E2%81%A6c%C2%85d%EF%BB%BF.pdf`)).toBe(
      'abcd.pdf',
    );
    expect(fileNameFromDisposition('file; filename="tab\there.txt"')).toBe('tabhere.txt');
    expect(fileNameFromDisposition('file')).toBeUndefined();
    expect(fileNameFromDisposition(undefined)).toBeUndefined();
    const long = fileNameFromDisposition(`file; filename="${'x'.repeat(300)}.pdf"`)!;
    expect(long).toHaveLength(200);
    expect(long.endsWith('.pdf')).toBe(true);
  });

  it('allows the spec extensions per field, case-insensitively', () => {
    for (const ext of ['txt', 'pdf', 'doc', 'docx', 'crt', 'pem', 'cer', 'der', 'p7b', 'p7c', 'p12', 'pfx'])
      expect(extensionAllowed('field_documents', ext)).toBe(true);
    expect(extensionAllowed('field_documents', extensionOf('Setup.EXE'))).toBe(false);
    expect(extensionAllowed('field_documents', extensionOf('REPORT.PDF'))).toBe(true);
    expect(extensionAllowed('field_image', 'svg')).toBe(false);
    expect(extensionAllowed('field_image', 'webp')).toBe(true);
  });

  it('checks magic bytes', () => {
    expect(contentMatches('pdf', Buffer.from('%PDF-1.7'))).toBe(true);
    expect(contentMatches('pdf', Buffer.from('<html>'))).toBe(false);
    expect(contentMatches('gif', Buffer.from('GIF89a....'))).toBe(true);
    expect(contentMatches('webp', Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe(true);
    expect(contentMatches('jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe(true);
    expect(contentMatches('docx', Buffer.from('PK\u0003\u0004....[Content_Types].xml'))).toBe(true);
    expect(contentMatches('docx', Buffer.from('PK\u0003\u0004 just a zip'))).toBe(false);
    expect(contentMatches('p12', Buffer.concat([Buffer.from([0x30, 0x82]), Buffer.alloc(20)]))).toBe(true);
    expect(contentMatches('p7b', Buffer.from('-----BEGIN PKCS7-----\nMIIB\n-----END PKCS7-----'))).toBe(true);
    expect(contentMatches('exe', Buffer.from('MZ'))).toBe(false);
  });
});
