import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import type { SecretBox } from '../lib/secret-box.ts';

/**
 * Demo content lives in content/ as YAML and Markdown files and is imported on start.
 * Every importer is idempotent: it upserts by a natural key (an e-mail, an alias, a file name),
 * so a second start, or a start after content/ changed, never duplicates anything and never
 * overwrites what users created.
 */
export interface ContentImporter {
  /** Shown in logs. */
  name: string;
  run(ctx: ContentContext): Promise<void>;
}

export interface ContentContext {
  db: Db;
  contentDir: string;
  log: FastifyBaseLogger;
  /** The portal's public URL (imported OpenAPI documents point their sandbox server at it). */
  publicUrl?: string;
  /** Seals secrets at rest, for content that creates OAuth clients (demo applications). */
  secretBox?: SecretBox;
  /** Reads a file under content/, or returns undefined when it does not exist. */
  read(relativePath: string): string | undefined;
}

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
