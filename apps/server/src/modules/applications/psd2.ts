import type { CertificateValidation } from '@portico/contracts/applications';
import { en } from '@portico/contracts/messages';
import type { Db } from '../../db/client.ts';
import type { FileStorage } from '../../lib/storage.ts';
import { checkPsd2Certificate, type CertificateCheck } from './certificate.ts';
import { appDb, type ApplicationRow } from './tables.ts';
import type { CertificateTables } from '../certificates/service.ts';

/**
 * The go-live certificate check (spec A 4, issue 5): when a subscribed product requires a PSD2
 * certificate, one of the organization's sandbox certificates (issue 28) or X.509 documents must
 * pass `checkPsd2Certificate`.
 */
const M = en.applications;
const CERTIFICATE_EXTENSIONS = ['crt', 'pem', 'cer', 'der'];
/** The upload limit of the organizations module: nothing larger was stored. */
const MAX_BYTES = 10 * 1024 * 1024;

export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (m, key: string) => values[key] ?? m);
}

const day = (d: Date) => d.toISOString().slice(0, 10);

function problemText(file: string, check: Extract<CertificateCheck, { ok: false }>): string {
  switch (check.problem) {
    case 'unreadable':
      return fill(M.certUnreadable, { file });
    case 'expired':
      return fill(M.certExpired, { file, date: day(check.date!) });
    case 'not-yet-valid':
      return fill(M.certNotYetValid, { file, date: day(check.date!) });
    case 'no-qc-statement':
      return fill(M.certNoQcStatement, { file });
  }
}

async function readAll(storage: FileStorage, key: string): Promise<Buffer | undefined> {
  const stream = await storage.get(key);
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buf.length;
    if (size > MAX_BYTES) {
      stream.destroy();
      return undefined;
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

export async function validateCertificates(
  db: Db,
  storage: FileStorage,
  app: ApplicationRow,
  now = new Date(),
): Promise<CertificateValidation> {
  const requiring = await appDb(db)
    .selectFrom('subscriptions as s')
    .innerJoin('api_products as p', 'p.id', 's.product_id')
    .select('p.title')
    .where('s.application_id', '=', app.id)
    .where('p.psd2_certificate_required', '=', true)
    .orderBy('p.weight')
    .orderBy('p.title')
    .execute();
  if (!requiring.length) return { isValid: true, certRequired: false, message: M.certNotRequired };
  const products = requiring.map((p) => p.title).join(', ');
  const documents = (
    await db
      .selectFrom('files')
      .select(['filename', 'storage_key', 'created_at'])
      .where('organization_id', '=', app.organization_id)
      .where('kind', '=', 'document')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute()
  ).filter((f) => CERTIFICATE_EXTENSIONS.includes(f.filename.split('.').pop()?.toLowerCase() ?? ''));
  // The organization's sandbox certificates (issue 28), the application's own first; revoked ones
  // do not count. Checked like uploaded ones: the same parser of the QC statement.
  const sandbox = await db
    .withTables<CertificateTables>()
    .selectFrom('organization_certificates')
    .select(['id', 'serial', 'pem'])
    .where('organization_id', '=', app.organization_id)
    .where('revoked_at', 'is', null)
    .orderBy('created', 'desc')
    .orderBy('id', 'desc')
    .execute();
  sandbox.sort((a, b) => Number(b.id === app.psd2_certificate_id) - Number(a.id === app.psd2_certificate_id));
  const candidates: { filename: string; load: () => Promise<Buffer | undefined> }[] = [
    ...sandbox.map((c) => ({
      filename: fill(M.certSandboxName, { serial: c.serial }),
      load: () => Promise.resolve(Buffer.from(c.pem)),
    })),
    ...documents.map((doc) => ({ filename: doc.filename, load: () => readAll(storage, doc.storage_key) })),
  ];
  if (!candidates.length)
    return { isValid: false, certRequired: true, message: fill(M.certMissing, { products }) };
  const problems: string[] = [];
  for (const doc of candidates) {
    const data = await doc.load();
    const check: CertificateCheck = data
      ? checkPsd2Certificate(data, now)
      : { ok: false, problem: 'unreadable' };
    if (check.ok)
      return {
        isValid: true,
        certRequired: true,
        message: fill(M.certValid, { file: doc.filename, until: day(check.validTo) }),
      };
    problems.push(problemText(doc.filename, check));
  }
  return {
    isValid: false,
    certRequired: true,
    message: fill(M.certInvalid, { products, problems: problems.join(' ') }),
  };
}
