import fs from 'node:fs';
import path from 'node:path';
import type { ContentContext, ContentImporter } from './content-importer.ts';

/** Runs the importers in their order (importers.ts), each with a reader of content/. */
export async function importContent(
  importers: readonly ContentImporter[],
  ctx: Omit<ContentContext, 'read'>,
): Promise<void> {
  const read = (relativePath: string) => {
    const file = path.join(ctx.contentDir, relativePath);
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  };
  for (const importer of importers) {
    const started = performance.now();
    await importer.run({ ...ctx, read });
    ctx.log.debug(
      { importer: importer.name, ms: Math.round(performance.now() - started) },
      'content imported',
    );
  }
}
