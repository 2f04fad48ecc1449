import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../db/client.ts';
import type { FileStorage } from '../../lib/storage.ts';
import { fileNameOf } from './service.ts';
import { imagesDb } from './tables.ts';

export interface ImageExportResult {
  /** content-relative paths written (images/console/<uuid>.<ext>). */
  written: string[];
  /** Rows whose stored file is missing: named, not written. */
  missing: string[];
}

/**
 * `export-content`: every uploaded image to `<contentDir>/images/console/<uuid>.<ext>`, the name it
 * is served under, so that the Markdown that shows it (`/images/console/<uuid>.<ext>`) keeps
 * working on a portal started from that folder (the route serves the folder's file when it has no
 * row) and the content import's link check finds it. A file already there with the same bytes is
 * left alone (an unchanged export changes nothing in git).
 */
export async function exportConsoleImages(
  db: Db,
  storage: FileStorage,
  contentDir: string,
): Promise<ImageExportResult> {
  const rows = await imagesDb(db)
    .selectFrom('console_images')
    .select(['uuid', 'type', 'storage_key'])
    .orderBy('id')
    .execute();
  const dir = path.join(contentDir, 'images', 'console');
  const result: ImageExportResult = { written: [], missing: [] };
  for (const row of rows) {
    const name = fileNameOf(row.uuid, row.type);
    const stream = await storage.get(row.storage_key);
    if (!stream) {
      result.missing.push(name);
      continue;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    const target = path.join(dir, name);
    const existing = await fs.readFile(target).catch(() => undefined);
    if (existing?.equals(bytes)) continue;
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(target, bytes);
    result.written.push(`images/console/${name}`);
  }
  return result;
}
