import type { Db } from '../db/client.ts';
import type { FileStorage } from '../lib/storage.ts';
import { exportCatalogProducts } from '../modules/catalog/export.ts';
import { exportConsoleImages } from '../modules/console-images/export.ts';
import { exportArticles, exportFaq } from '../modules/content/export.ts';
import { exportPages } from '../modules/pages/export.ts';
import { exportStories } from '../modules/quickstart/export.ts';
import { exportSiteContent } from '../modules/site/export.ts';

/**
 * `export-content` (issue 27): everything the console edits, written back into a content folder in
 * the files' own formats, so that the folder imported into a fresh database gives the same content
 * (test/content-export.test.ts). The counterpart of the importers (importers.ts); each domain
 * writes its own files.
 */
export async function exportContent(db: Db, storage: FileStorage, dir: string) {
  return {
    articles: await exportArticles(db, dir),
    faq: await exportFaq(db, dir),
    pages: await exportPages(db, dir),
    site: await exportSiteContent(db, dir),
    catalog: await exportCatalogProducts(db, dir),
    stories: await exportStories(db, dir),
    // The console's uploaded images, next to the texts that show them.
    images: await exportConsoleImages(db, storage, dir),
  };
}
