import fs from 'node:fs';
import path from 'node:path';
import type { ContentImporter } from '../../content/content-importer.ts';
import type { Db } from '../../db/client.ts';
import type { FileStorage } from '../../lib/storage.ts';
import { storageKeyFor } from '../../lib/storage.ts';
import { imageSize, imageTypeOf } from '../../lib/uploads.ts';
import { TYPE_OF_EXTENSION } from './service.ts';
import { imagesDb } from './tables.ts';

/** `<uuid>.<ext>`: the name export-content writes an uploaded image under (export.ts). */
const EXPORTED_NAME = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(png|jpg|gif|webp)$/;

export interface ImageImportResult {
  /** File names registered now. */
  registered: string[];
  /** Files skipped: not named like an export, or their bytes not the image their extension says. */
  skipped: string[];
}

/**
 * content/images/console (README.md 'Export and import'): the images another portal's
 * export-content wrote become uploaded images here, so the console's picker lists them (and they
 * can be deleted there). Each file `<uuid>.<ext>` whose bytes are the image its extension says is
 * copied to the storage and gets a row under that uuid (its name as the file's name, no uploader).
 * Idempotent: a file whose uuid has a row is left alone, so a second import adds nothing, and an
 * image uploaded here and exported to the same folder is not touched.
 */
export async function importConsoleImages(
  db: Db,
  storage: FileStorage,
  contentDir: string,
): Promise<ImageImportResult> {
  const dir = path.join(contentDir, 'images', 'console');
  const result: ImageImportResult = { registered: [], skipped: [] };
  if (!fs.existsSync(dir)) return result;
  const names = fs.readdirSync(dir).sort();
  const candidates = names.flatMap((name) => {
    const match = EXPORTED_NAME.exec(name);
    if (!match) {
      result.skipped.push(name);
      return [];
    }
    return [{ name, uuid: match[1]!, type: TYPE_OF_EXTENSION[match[2]!]! }];
  });
  if (!candidates.length) return result;
  const known = new Set(
    (
      await imagesDb(db)
        .selectFrom('console_images')
        .select('uuid')
        .where(
          'uuid',
          'in',
          candidates.map((c) => c.uuid),
        )
        .execute()
    ).map((r) => r.uuid),
  );
  for (const c of candidates) {
    if (known.has(c.uuid)) continue;
    const bytes = fs.readFileSync(path.join(dir, c.name));
    if (imageTypeOf(bytes) !== c.type) {
      result.skipped.push(c.name);
      continue;
    }
    const key = storageKeyFor(c.uuid);
    await storage.put(key, bytes);
    const dimensions = imageSize(c.type, bytes);
    const inserted = await imagesDb(db)
      .insertInto('console_images')
      .values({
        uuid: c.uuid,
        storage_key: key,
        file_name: c.name,
        type: c.type,
        size: bytes.length,
        width: dimensions?.width ?? null,
        height: dimensions?.height ?? null,
        uploaded_by: null,
      })
      .onConflict((oc) => oc.column('uuid').doNothing())
      .returning('uuid')
      .executeTakeFirst();
    if (inserted) result.registered.push(c.name);
  }
  return result;
}

export const consoleImagesImporter: ContentImporter = {
  name: 'console-images',
  async run(ctx) {
    if (!ctx.storage) {
      ctx.log.warn('no file storage: the images of content/images/console are served but not listed');
      return;
    }
    const result = await importConsoleImages(ctx.db, ctx.storage, ctx.contentDir);
    if (result.registered.length)
      ctx.log.info({ images: result.registered.length }, 'console images registered from content/');
    if (result.skipped.length)
      ctx.log.warn({ files: result.skipped }, 'files of content/images/console that are no exported image');
  },
};
