import { X509Certificate } from 'node:crypto';
import path from 'node:path';

/**
 * Rules for uploaded organization files: allowed extensions per field (spec A 5 and 9), a size
 * limit, and a check that the bytes are what the extension claims. The MIME type we store and serve
 * comes from the extension, never from the client.
 */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export const DOCUMENT_EXTENSIONS = [
  'txt',
  'pdf',
  'doc',
  'docx',
  'crt',
  'pem',
  'cer',
  'der',
  'p7b',
  'p7c',
  'p12',
  'pfx',
] as const;
export const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'webp'] as const;

export const UPLOAD_FIELDS = {
  field_image: { kind: 'image', extensions: IMAGE_EXTENSIONS },
  field_documents: { kind: 'document', extensions: DOCUMENT_EXTENSIONS },
} as const;
export type UploadField = keyof typeof UPLOAD_FIELDS;

export const MIME_TYPES: Record<string, string> = {
  txt: 'text/plain; charset=utf-8',
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  crt: 'application/x-x509-ca-cert',
  pem: 'application/x-pem-file',
  cer: 'application/pkix-cert',
  der: 'application/x-x509-ca-cert',
  p7b: 'application/x-pkcs7-certificates',
  p7c: 'application/pkcs7-mime',
  p12: 'application/x-pkcs12',
  pfx: 'application/x-pkcs12',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/**
 * The file name of `Content-Disposition: file; filename="x.pdf"` (or filename*=UTF-8''x.pdf),
 * reduced to a safe base name: no folders, no control or bidirectional formatting characters, at
 * most 200 characters.
 */
export function fileNameFromDisposition(header: string | undefined): string | undefined {
  if (!header) return undefined;
  let raw: string | undefined;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star?.[1]) {
    try {
      raw = decodeURIComponent(star[1].trim());
    } catch {
      raw = undefined;
    }
  }
  if (raw === undefined) {
    const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(header);
    const bare = /filename\s*=\s*([^;"\s]+)/.exec(header);
    raw = quoted?.[1]?.replace(/\\(.)/g, '$1') ?? bare?.[1];
  }
  if (raw === undefined) return undefined;
  const cleaned = path.posix
    .basename(raw.replace(/\\/g, '/'))
    // Controls (C0, DEL, C1), format characters (the bidirectional overrides such as U+202E that
    // make 'cod.pdf' of 'fdp.doc', zero-width ones), line separators and lone surrogates.
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}"]/gu, '')
    .trim();
  if (!cleaned || cleaned === '.' || cleaned === '..') return undefined;
  if (cleaned.length <= 200) return cleaned;
  const ext = path.extname(cleaned).slice(0, 20);
  return cleaned.slice(0, 200 - ext.length) + ext;
}

export function extensionOf(fileName: string): string {
  return path.extname(fileName).slice(1).toLowerCase();
}

export function extensionAllowed(field: UploadField, ext: string): boolean {
  return (UPLOAD_FIELDS[field].extensions as readonly string[]).includes(ext);
}

const startsWith = (data: Buffer, bytes: number[] | string, at = 0) => {
  const expected = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
  return data.length >= at + expected.length && data.subarray(at, at + expected.length).equals(expected);
};

function isUtf8Text(data: Buffer): boolean {
  if (data.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return true;
  } catch {
    return false;
  }
}

/** An X.509 certificate in PEM (possibly a chain; every block must parse) or DER. */
function isCertificate(data: Buffer): boolean {
  const text = data.toString('latin1');
  if (text.includes('-----BEGIN')) {
    const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
    if (!blocks) return false;
    try {
      for (const block of blocks) new X509Certificate(block);
      return true;
    } catch {
      return false;
    }
  }
  try {
    new X509Certificate(data);
    return true;
  } catch {
    return false;
  }
}

/** DER: an ASN.1 SEQUENCE (PKCS#7 and PKCS#12 containers). */
const isDerSequence = (data: Buffer) => data.length > 16 && data[0] === 0x30;

/** Whether the bytes are what the extension says. */
export function contentMatches(ext: string, data: Buffer): boolean {
  switch (ext) {
    case 'txt':
      return isUtf8Text(data);
    case 'pdf':
      return startsWith(data, '%PDF-');
    case 'doc':
      // OLE2 compound document.
      return startsWith(data, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    case 'docx':
      // A ZIP container holding a Word document.
      return startsWith(data, [0x50, 0x4b, 0x03, 0x04]) && data.includes('[Content_Types].xml');
    case 'crt':
    case 'pem':
    case 'cer':
    case 'der':
      return isCertificate(data);
    case 'p7b':
    case 'p7c':
      return data.toString('latin1').includes('-----BEGIN PKCS7-----') || isDerSequence(data);
    case 'p12':
    case 'pfx':
      return isDerSequence(data);
    case 'png':
      return startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'jpg':
    case 'jpeg':
      return startsWith(data, [0xff, 0xd8, 0xff]);
    case 'gif':
      return startsWith(data, 'GIF87a') || startsWith(data, 'GIF89a');
    case 'webp':
      return startsWith(data, 'RIFF') && startsWith(data, 'WEBP', 8);
    default:
      return false;
  }
}
