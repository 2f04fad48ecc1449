import { describe, expect, it } from 'vitest';
import {
  contentMatches,
  extensionAllowed,
  extensionOf,
  fileNameFromDisposition,
  imageSize,
  imageTypeOf,
  isSvg,
} from './uploads.ts';
import { png } from '../../test/image-fixtures.ts';

describe('uploads', () => {
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

  it('tells an image by its bytes, not its name, and reads its size from the header', () => {
    expect(imageTypeOf(png(3, 2))).toBe('png');
    expect(imageSize('png', png(3, 2))).toEqual({ width: 3, height: 2 });
    const gif = Buffer.from('GIF89a\x05\x00\x07\x00', 'latin1');
    expect(imageTypeOf(gif)).toBe('gif');
    expect(imageSize('gif', gif)).toEqual({ width: 5, height: 7 });
    // A baseline JPEG: SOI, an APP0 segment (skipped by its length), then SOF0 with 9 × 4.
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x04, 0x00, 0x09,
      0x01,
    ]);
    expect(imageTypeOf(jpeg)).toBe('jpeg');
    expect(imageSize('jpeg', jpeg)).toEqual({ width: 9, height: 4 });
    const webp = Buffer.alloc(30);
    webp.write('RIFF', 0, 'latin1');
    webp.write('WEBPVP8X', 8, 'latin1');
    webp.writeUIntLE(99, 24, 3);
    webp.writeUIntLE(49, 27, 3);
    expect(imageTypeOf(webp)).toBe('webp');
    expect(imageSize('webp', webp)).toEqual({ width: 100, height: 50 });
    // HTML, SVG and text are no image whatever they are called; a cut header has no size.
    expect(imageTypeOf(Buffer.from('<!doctype html><script>alert(1)</script>'))).toBeUndefined();
    expect(imageTypeOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(isSvg(Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe(true);
    expect(isSvg(png(1, 1))).toBe(false);
    expect(imageSize('png', png(1, 1).subarray(0, 18))).toBeUndefined();
    expect(imageSize('jpeg', jpeg.subarray(0, 10))).toBeUndefined();
    expect(contentMatches('png', Buffer.from('<html>'))).toBe(false);
    expect(contentMatches('jpg', jpeg)).toBe(true);
  });
});
