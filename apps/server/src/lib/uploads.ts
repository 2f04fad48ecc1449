import { X509Certificate } from 'node:crypto';
import path from 'node:path';

/**
 * The one set of rules for uploaded files: an organization's image and documents (spec A 5 and 9),
 * support ticket attachments and the console's content images. Allowed extensions per field, a size
 * limit, a cleaned file name and a check that the bytes are what the extension claims. The MIME type
 * we store and serve comes from the extension (images: from the bytes), never from the client.
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
    case 'gif':
    case 'webp':
      return imageTypeOf(data) === ext;
    case 'jpg':
    case 'jpeg':
      return imageTypeOf(data) === 'jpeg';
    default:
      return false;
  }
}

/** The raster image types accepted as uploads (SVG is not one: see imageTypeOf). */
export const IMAGE_TYPES = ['png', 'jpeg', 'gif', 'webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** The MIME type of each image type, the one served (never the client's). */
export const IMAGE_MIME_TYPES: Record<ImageType, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/**
 * The image type the bytes are, by their signature ("magic number"), whatever the file is called;
 * undefined for anything else. SVG is never one: it is an XML document that can carry scripts,
 * event handlers and references to other origins, so an upload that is one is refused rather than
 * cleaned (isSvg says so, for a clearer message).
 */
export function imageTypeOf(data: Buffer): ImageType | undefined {
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(data, 'GIF87a') || startsWith(data, 'GIF89a')) return 'gif';
  if (startsWith(data, 'RIFF') && startsWith(data, 'WEBP', 8)) return 'webp';
  return undefined;
}

/** Whether the bytes look like an SVG document (an `<svg` element near the start). */
export function isSvg(data: Buffer): boolean {
  return /<svg[\s>]/i.test(data.subarray(0, 4096).toString('latin1'));
}

/**
 * An image's width and height in pixels from its header (no decoding), when the header says
 * them plainly; undefined when it does not (a truncated or unusual file is still stored).
 */
export function imageSize(type: ImageType, data: Buffer): { width: number; height: number } | undefined {
  const size = (width: number, height: number) => (width > 0 && height > 0 ? { width, height } : undefined);
  try {
    switch (type) {
      case 'png':
        // The IHDR chunk comes first: width and height, 4 bytes each, big-endian, at 16.
        return startsWith(data, 'IHDR', 12) ? size(data.readUInt32BE(16), data.readUInt32BE(20)) : undefined;
      case 'gif':
        return size(data.readUInt16LE(6), data.readUInt16LE(8));
      case 'webp':
        return webpSize(data);
      case 'jpeg':
        return jpegSize(data);
    }
  } catch {
    return undefined; // RangeError: the header is cut short
  }
}

function webpSize(data: Buffer): { width: number; height: number } | undefined {
  const chunk = data.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { width: data.readUIntLE(24, 3) + 1, height: data.readUIntLE(27, 3) + 1 };
  if (chunk === 'VP8L' && data[20] === 0x2f) {
    const bits = data.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ' && startsWith(data, [0x9d, 0x01, 0x2a], 23)) {
    const width = data.readUInt16LE(26) & 0x3fff;
    const height = data.readUInt16LE(28) & 0x3fff;
    return width && height ? { width, height } : undefined;
  }
  return undefined;
}

/** The first start-of-frame marker's size; the markers before it are skipped by their lengths. */
function jpegSize(data: Buffer): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 9 < data.length) {
    if (data[at] !== 0xff) return undefined;
    const marker = data[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // SOF0-SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = data.readUInt16BE(at + 5);
      const width = data.readUInt16BE(at + 7);
      return width && height ? { width, height } : undefined;
    }
    at += 2 + data.readUInt16BE(at + 2);
  }
  return undefined;
}
