import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import type { Db } from '../../db/client.ts';
import { markdownTranslationText, translationsOfKind } from '../../lib/translations.ts';
import { PAGE_TRANSLATION_FIELDS } from './importer.ts';
import { pagesDb } from './tables.ts';

/**
 * Writes the basic pages of the database back to content/pages/*.md in the format the import
 * reads (README.md 'Console'), so that what was edited in the console can be kept in git. A page
 * keeps its file name; one made in the console gets one from its path, and the database remembers
 * it. Files of pages that no longer exist are removed. A page's translations go to
 * `<name>.<langcode>.md` beside it (decision 063).
 */
export interface PagesExportResult {
  written: string[];
  /** The pages' translation files (`<name>.<langcode>.md`). */
  translations: string[];
  removed: string[];
}

function nameOf(alias: string): string {
  const slug = alias
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'page';
}

export async function exportPages(db: Db, contentDir: string): Promise<PagesExportResult> {
  const result: PagesExportResult = { written: [], translations: [], removed: [] };
  const pdb = pagesDb(db);
  const rows = await pdb
    .selectFrom('pages as p')
    .leftJoin('users as u', 'u.id', 'p.author_id')
    .select([
      'p.id',
      'p.uuid',
      'p.alias',
      'p.title',
      'p.body_markdown',
      'p.body_html',
      'p.image_url',
      'p.image_alt',
      'p.scrollspy_visible',
      'p.google_drive_id',
      'p.published',
      'p.publish_at',
      'p.source_file',
      'u.email as author',
    ])
    .orderBy('p.id')
    .execute();
  const aliases = await pdb
    .selectFrom('page_aliases')
    .select(['page_id', 'alias'])
    .orderBy('alias')
    .execute();

  const dir = path.join(contentDir, 'pages');
  fs.mkdirSync(dir, { recursive: true });

  const translations = await translationsOfKind(db, 'page');
  const isPageFile = (f: string | null): f is string => !!f && /^pages\/[^/]+\.md$/i.test(f);
  const taken = new Set(rows.flatMap((r) => (isPageFile(r.source_file) ? [r.source_file] : [])));
  for (const r of rows) {
    let file = r.source_file;
    if (!isPageFile(file)) {
      const base = nameOf(r.alias);
      file = `pages/${base}.md`;
      for (let i = 2; taken.has(file); i++) file = `pages/${base}-${i}.md`;
      taken.add(file);
      // Remembered, so that the next export writes the same file.
      await pdb.updateTable('pages').set({ source_file: file }).where('id', '=', r.id).execute();
    }
    const others = aliases.filter((a) => a.page_id === r.id && a.alias !== r.alias).map((a) => a.alias);
    const meta: Record<string, unknown> = { title: r.title };
    if (others.length) meta.aliases = [r.alias, ...others];
    else meta.alias = r.alias;
    if (r.scrollspy_visible) meta.scrollspy = true;
    if (!r.published) {
      if (r.publish_at) meta.publishAt = new Date(r.publish_at).toISOString();
      else meta.published = false;
    }
    if (r.author) meta.author = r.author;
    if (r.image_url) meta.image = { url: r.image_url, alt: r.image_alt ?? '' };
    if (r.google_drive_id) meta.googleDriveId = r.google_drive_id;
    const body = (r.body_markdown ?? r.body_html).trim();
    const text = `---\n${stringify(meta, { lineWidth: 0 }).trimEnd()}\n---\n\n${body}\n`;
    fs.writeFileSync(path.join(contentDir, file), text);
    result.written.push(file);
    for (const [langcode, fields] of translations.get(r.uuid) ?? []) {
      const translation = file.replace(/\.md$/i, `.${langcode}.md`);
      fs.writeFileSync(
        path.join(contentDir, translation),
        markdownTranslationText(PAGE_TRANSLATION_FIELDS, fields),
      );
      result.translations.push(translation);
    }
  }

  const written = new Set([...result.written, ...result.translations]);
  for (const f of fs.readdirSync(dir)) {
    const rel = `pages/${f}`;
    if (/\.md$/i.test(f) && !written.has(rel)) {
      fs.rmSync(path.join(dir, f));
      result.removed.push(rel);
    }
  }
  return result;
}
