import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { blockLayoutSchema, cookiesConsentSchema } from '@portico/contracts/site';
import type { Db } from '../../db/client.ts';
import { siteContentRepo } from './site-content.ts';
import { exportSiteTranslations } from './translations.ts';

/**
 * Writes the site documents of the database back to content/site/*.yaml in the format the import
 * reads (README.md 'Console'), so that what was edited in the console can be kept in git: the
 * LIVE documents (a pending draft or scheduled version is not written). A document the database
 * does not hold leaves its file as it is. Each document's translations follow it as its
 * `translations` block (decision 064).
 */
export async function exportSiteContent(db: Db, contentDir: string): Promise<string[]> {
  const repo = siteContentRepo(db);
  const written: string[] = [];
  const files = [
    ['block-layout', 'site/block-layout.yaml', blockLayoutSchema],
    ['cookies-consent', 'site/cookies-consent.yaml', cookiesConsentSchema],
  ] as const;
  fs.mkdirSync(path.join(contentDir, 'site'), { recursive: true });
  for (const [key, file, schema] of files) {
    const data = await repo.get<unknown>(key);
    if (data === undefined) continue;
    const translations = await exportSiteTranslations(db, key, data);
    const text = stringify(
      { ...schema.parse(data), ...(translations ? { translations } : {}) },
      { lineWidth: 0 },
    );
    fs.writeFileSync(path.join(contentDir, file), text);
    written.push(file);
  }
  return written;
}
