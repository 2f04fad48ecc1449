import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { importCatalogContent } from '../src/modules/catalog/importer.ts';
import { importBlogAndFaq } from '../src/modules/content/importer.ts';
import { importPagesContent } from '../src/modules/pages/importer.ts';
import { consoleFixture, dataOf, json } from './console-fixtures.ts';
import type { TranslationMarker as Marker } from '../src/lib/translations.ts';

/**
 * Translations in the content files (issue 30, decision 063): `<name>.de.md` beside an article or
 * a basic page, a `translations` block on a FAQ question or an API product. The demo content's
 * German is imported on start and read in German; the import validates a translation as the
 * console's PUT does (a broken one stops it, naming file and field), keeps a translation edited in
 * the console since, and writes nothing when nothing changed.
 */

const REPO_CONTENT = path.resolve(import.meta.dirname, '../../../content');
const dirs: string[] = [];
/** A copy of the demo content, for a test to change. */
function contentCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-translations-'));
  dirs.push(dir);
  fs.cpSync(REPO_CONTENT, dir, { recursive: true });
  return dir;
}
const started = contentCopy();
const f = consoleFixture('content-files', { CONTENT_DIR: started });
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

interface Resource {
  id: string;
  attributes: Record<string, unknown> & { title: string };
  meta?: { translation?: Marker };
}

const fieldsOf = async (type: string, id: string) => {
  const { rows } = await sql<{ fields: unknown; updated_by: number | null }>`select fields, updated_by
    from content_translations where entity_type = ${type} and entity_id = ${id} and langcode = 'de'`.execute(
    f.t.app.db,
  );
  const row = rows[0];
  if (!row) return undefined;
  const fields = (typeof row.fields === 'string' ? JSON.parse(row.fields) : row.fields) as Record<
    string,
    string
  >;
  return { fields, updatedBy: row.updated_by };
};

async function articleUuid(file: string): Promise<string> {
  const { rows } = await sql<{ uuid: string }>`select uuid::text as uuid from articles
    where source_file = ${file}`.execute(f.t.app.db);
  return rows[0]!.uuid;
}

describe('content translations in the content files', () => {
  it('imports the demo content in German: articles, FAQs, basic pages and API products', async () => {
    const articles = await json<{ data: Resource[] }>(
      await f.visitor().get('/jsonapi/node/article?filter[path.alias]=/blog/instant-payments&langcode=de'),
    );
    const article = articles.data[0]!;
    expect(article.attributes.title).toBe('Echtzeitüberweisungen in der Zahlungs-API verfügbar');
    expect((article.attributes.body as { processed: string }).processed).toContain(
      '<h2>Was sich für Sie ändert</h2>',
    );
    expect(article.meta?.translation).toEqual({ langcode: 'de', shown: 'de', fallback: false });

    const faqs = await json<{ data: Resource[] }>(await f.visitor().get('/jsonapi/node/faq?langcode=de'));
    expect(faqs.data.map((q) => q.attributes.title)).toContain('Wie erhalte ich Zugang zu den APIs?');
    expect(faqs.data.every((q) => q.meta?.translation?.fallback === false)).toBe(true);
    // The categories too (content/faq.yaml and content/blog/categories.yaml).
    for (const taxonomy of ['faq_categories', 'news_categories']) {
      const categories = await json<{
        data: { attributes: { name: string }; meta?: { translation?: Marker } }[];
      }>(await f.visitor().get(`/jsonapi/taxonomy_term/${taxonomy}?langcode=de`));
      expect(categories.data.length, taxonomy).toBeGreaterThan(0);
      expect(
        categories.data.every((c) => c.meta?.translation?.fallback === false),
        taxonomy,
      ).toBe(true);
    }

    const terms = await json<{ title: string; body: string; translation: Marker }>(
      await f.visitor().get('/terms?_format=json&langcode=de'),
    );
    expect(terms.title).toBe('Nutzungsbedingungen');
    expect(terms.body).toContain('<h2>Haftung</h2>');
    expect(terms.translation.fallback).toBe(false);

    const products = await json<{ data: Resource[] }>(
      await f.visitor().get('/jsonapi/node/api_product?langcode=de'),
    );
    expect(products.data.map((p) => p.attributes.title)).toContain('Zahlungs-API');
    expect(products.data.every((p) => p.meta?.translation?.fallback === false)).toBe(true);
    // In English, the items' own texts.
    const english = await json<{ data: Resource[] }>(await f.visitor().get('/jsonapi/node/api_product'));
    expect(english.data.map((p) => p.attributes.title)).toContain('Payments API');
  });

  it('renders and sanitizes a Markdown translation as the console does, and an unchanged file writes nothing', async () => {
    const dir = contentCopy();
    fs.appendFileSync(
      path.join(dir, 'blog/articles/sandbox-tips.de.md'),
      '\n<script>alert(1)</script>\n\n<a href="javascript:alert(2)">Klick</a> *betont*\n',
    );
    const first = await importBlogAndFaq(f.t.app.db, dir);
    expect(first.translations.written).toBe(1);
    const stored = await fieldsOf('article', await articleUuid('blog/articles/sandbox-tips.md'));
    expect(stored?.updatedBy).toBeNull();
    expect(stored?.fields.body).toContain('<script>alert(1)</script>');
    expect(stored?.fields.bodyHtml).toContain('<em>betont</em>');
    expect(stored?.fields.bodyHtml).not.toContain('<script');
    expect(stored?.fields.bodyHtml).not.toContain('javascript:');

    const again = await importBlogAndFaq(f.t.app.db, dir);
    expect(again.translations).toEqual({ written: 0, kept: 0, removed: 0 });
    expect(again.unchanged.length).toBeGreaterThan(0);
    const pages = await importPagesContent(f.t.app.db, dir);
    expect(pages.translations).toEqual({ written: 0, kept: 0, removed: 0 });

    // The file's translation gone: the imported one goes too.
    fs.rmSync(path.join(dir, 'blog/articles/sandbox-tips.de.md'));
    expect((await importBlogAndFaq(f.t.app.db, dir)).translations.removed).toBe(1);
    expect(await fieldsOf('article', await articleUuid('blog/articles/sandbox-tips.md'))).toBeUndefined();
    fs.cpSync(
      path.join(REPO_CONTENT, 'blog/articles/sandbox-tips.de.md'),
      path.join(dir, 'blog/articles/sandbox-tips.de.md'),
    );
    expect((await importBlogAndFaq(f.t.app.db, dir)).translations.written).toBe(1);
  });

  it('keeps a translation edited in the console since, article and API product alike', async () => {
    const dir = contentCopy();
    const editor = await f.as('content_editor');
    const uuid = await articleUuid('blog/articles/oauth-in-practice.md');
    await dataOf(
      await editor.send(
        'PUT',
        `/admin-api/content/articles/${uuid}/translations/de`,
        { fields: { title: 'OAuth 2 aus der Konsole', description: '', body: 'Im Browser geschrieben.' } },
        'application/json',
      ),
    );
    const manager = await f.as('api_manager');
    const products = await dataOf<{ id: string; alias: string }[]>(
      await manager.get('/admin-api/catalog/products'),
    );
    const payments = products.find((p) => p.alias === 'payments-api-v1')!;
    await dataOf(
      await manager.send(
        'PUT',
        `/admin-api/catalog/products/${payments.id}/translations/de`,
        { fields: { title: 'Zahlungen (Konsole)', description: '<p>Aus der Konsole.</p>' } },
        'application/json',
      ),
    );

    // Both files change: the console's translations stay.
    const md = path.join(dir, 'blog/articles/oauth-in-practice.de.md');
    fs.writeFileSync(md, fs.readFileSync(md, 'utf8').replace('OAuth 2 in der Praxis', 'OAuth 2 geändert'));
    const yaml = path.join(dir, 'catalog/products.yaml');
    fs.writeFileSync(
      yaml,
      fs.readFileSync(yaml, 'utf8').replace('title: Zahlungs-API', 'title: Zahlungs-API neu'),
    );
    const result = await importBlogAndFaq(f.t.app.db, dir);
    expect(result.translations.kept).toBe(1);
    expect((await fieldsOf('article', uuid))?.fields.title).toBe('OAuth 2 aus der Konsole');
    expect(await importCatalogContent(f.t.app.db, dir, f.t.app.config.publicUrl)).toBe('imported');
    expect((await fieldsOf('api_product', payments.id))?.fields.title).toBe('Zahlungen (Konsole)');
    // The other products follow their file.
    const accounts = products.find((p) => p.alias === 'accounts-api-v1')!;
    expect((await fieldsOf('api_product', accounts.id))?.fields.title).toBe('Konten-API');
  });

  it('stops the import at a broken translation, naming the file and the field', async () => {
    const faqDir = contentCopy();
    const faq = path.join(faqDir, 'faq.yaml');
    fs.writeFileSync(
      faq,
      fs.readFileSync(faq, 'utf8').replace('question: Wie erhalte ich Zugang zu den APIs?', 'question: ""'),
    );
    await expect(importBlogAndFaq(f.t.app.db, faqDir)).rejects.toThrow(
      /content\/faq\.yaml is invalid:\n {2}categories\.0\.questions\.0\.translations\.de\.question: /,
    );

    const mdDir = contentCopy();
    const md = path.join(mdDir, 'pages/terms.de.md');
    fs.writeFileSync(
      md,
      fs.readFileSync(md, 'utf8').replace('title: Nutzungsbedingungen', `title: ${'x'.repeat(256)}`),
    );
    await expect(importPagesContent(f.t.app.db, mdDir)).rejects.toThrow(
      /content\/pages\/terms\.de\.md is invalid:\n {2}title: /,
    );
    const orphan = contentCopy();
    fs.writeFileSync(
      path.join(orphan, 'blog/articles/nowhere.de.md'),
      '---\ntitle: Nirgends\n---\n\nText.\n',
    );
    await expect(importBlogAndFaq(f.t.app.db, orphan)).rejects.toThrow(
      'content/blog/articles/nowhere.de.md translates content/blog/articles/nowhere.md, which does not exist',
    );

    const yamlDir = contentCopy();
    const yaml = path.join(yamlDir, 'catalog/products.yaml');
    fs.writeFileSync(
      yaml,
      fs
        .readFileSync(yaml, 'utf8')
        .replace('      de:\n        title: Konten-API', '      fr:\n        title: API Comptes'),
    );
    await expect(importCatalogContent(f.t.app.db, yamlDir, f.t.app.config.publicUrl)).rejects.toThrow(
      /content\/catalog\/products\.yaml is invalid:\n {2}products\.0\.translations\.fr: /,
    );
    // Nothing was written: the German of the demo content is still there.
    const products = await json<{ data: Resource[] }>(
      await f.visitor().get('/jsonapi/node/api_product?langcode=de'),
    );
    expect(products.data.map((p) => p.attributes.title)).toContain('Konten-API');
  });
});
