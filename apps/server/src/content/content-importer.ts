import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import type { SecretBox } from '../lib/secret-box.ts';
import type { FileStorage } from '../lib/storage.ts';

/**
 * The interface every content importer implements (types only: it sits below the modules that
 * implement it; decision 044). `import-content.ts` runs importers; `importers.ts`, the only file
 * here that imports modules, lists them in order.
 *
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
  /** The uploads' storage, for content that becomes uploaded files (content/images/console). */
  storage?: FileStorage;
  /** Reads a file under content/, or returns undefined when it does not exist. */
  read(relativePath: string): string | undefined;
}
