import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportContent } from '../src/content/exporters.ts';
import type { TestClient } from './http-client.ts';
import { signedInUser } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * Issue 27, 'Done means': export then import of the content folder is a round trip that changes
 * nothing. The whole folder, every domain's exporter at once (content/exporters.ts, what
 * `export-content` runs), after console edits of several kinds: a fresh portal started from the
 * exported folder holds the same content, and exporting it again writes the same files.
 */

const REPO_CONTENT = path.resolve(import.meta.dirname, '../../../content');

/**
 * What the content folder describes, table by table, each row by its natural keys (aliases,
 * names, paths, file names) rather than by serial ids or uuids the import makes afresh, and
 * without the import's own timestamps and the console's version counters.
 */
const CONTENT = {
  articles: sql`select a.title, a.path, a.description, a.body_markdown, a.body_html, a.image_url,
      a.image_alt, a.published, a.publish_at, a.internal, a.scrollspy_visible, a.source_file,
      c.name as category, au.key as author
    from articles a left join news_categories c on c.id = a.category_id
      left join article_authors au on au.id = a.author_id`,
  authors: sql`select key, name, first_name, last_name, image_url from article_authors`,
  newsCategories: sql`select name, weight from news_categories`,
  faqCategories: sql`select name, weight from faq_categories`,
  faqs: sql`select f.question, f.answer_markdown, f.answer_html, f.published, f.publish_at, f.weight,
      c.name as category
    from faqs f left join faq_categories c on c.id = f.category_id`,
  pages: sql`select p.alias, p.title, p.body_markdown, p.body_html, p.image_url, p.image_alt,
      p.published, p.publish_at, p.scrollspy_visible, p.google_drive_id, p.source_file,
      (select array_agg(pa.alias order by pa.alias) from page_aliases pa where pa.page_id = p.id) as aliases
    from pages p`,
  site: sql`select key, data from site_content`,
  productCategories: sql`select name, weight from product_categories`,
  products: sql`select p.alias, p.title, p.label, p.description, p.weight, p.commercial, p.deprecated,
      p.retired, p.image_url, p.image_alt, p.header_image_url, p.advantages_header_title,
      p.advantages_header_body, p.overview_display, p.disable_documentation,
      p.psd2_certificate_required, p.scope, p.scope_production, c.name as category,
      s.alias as successor, t.key as comparison_table
    from api_products p left join product_categories c on c.id = p.category_id
      left join api_products s on s.id = p.successor_id
      left join comparison_tables t on t.id = p.comparison_table_id`,
  related: sql`select p.alias as product, r.alias as related, rp.weight
    from related_products rp join api_products p on p.id = rp.product_id
      join api_products r on r.id = rp.related_product_id`,
  changelog: sql`select p.alias as product, e.version, e.release_date, e.notes, e.notes_markdown
    from change_log_entries e join api_products p on p.id = e.product_id`,
  comparisonTables: sql`select key, title from comparison_tables`,
  comparisonRows: sql`select t.key as table, r.type, r.title, r.values, r.weight
    from comparison_rows r join comparison_tables t on t.id = r.table_id`,
  comparisonColumns: sql`select t.key as table, p.alias as product, c.title, c.weight
    from comparison_table_products c join comparison_tables t on t.id = c.table_id
      left join api_products p on p.id = c.product_id`,
  documentations: sql`select p.alias as product, d.alias, d.title, d.version, d.deprecated, d.plan,
      md5(coalesce(d.source, '')) as source, pd.weight
    from api_product_documentations pd join api_products p on p.id = pd.product_id
      join api_documentations d on d.id = pd.documentation_id`,
  stories: sql`select uuid, title, weight, steps, disable_for_anonymous, published, publish_at
    from quickstart_stories`,
  // The translations of the kinds the files carry (decision 063), by their item's natural key.
  translations: sql`select t.entity_type, t.langcode, t.fields,
      coalesce(a.source_file, p.source_file, f.question, ap.alias, nc.name, fc.name) as item
    from content_translations t
      left join articles a on t.entity_type = 'article' and a.uuid::text = t.entity_id
      left join pages p on t.entity_type = 'page' and p.uuid::text = t.entity_id
      left join faqs f on t.entity_type = 'faq' and f.uuid::text = t.entity_id
      left join api_products ap on t.entity_type = 'api_product' and ap.uuid::text = t.entity_id
      left join news_categories nc on t.entity_type = 'news_category' and nc.uuid::text = t.entity_id
      left join faq_categories fc on t.entity_type = 'faq_category' and fc.uuid::text = t.entity_id
    where t.entity_type in ('article', 'page', 'faq', 'api_product', 'news_category', 'faq_category')`,
} as const;

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'portico-content-export-'));
}

/** Every file under `dir` with its bytes, by relative path. */
function filesOf(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out.set(path.relative(dir, full), fs.readFileSync(full).toString('base64'));
  }
  return out;
}

/** Each query's rows as sorted JSON texts (dates as ISO texts: PGlite and PostgreSQL alike). */
async function contentOf(t: TestApp): Promise<Record<keyof typeof CONTENT, string[]>> {
  const out = {} as Record<keyof typeof CONTENT, string[]>;
  for (const [name, query] of Object.entries(CONTENT) as [
    keyof typeof CONTENT,
    (typeof CONTENT)[keyof typeof CONTENT],
  ][]) {
    const { rows } = await sql<{ r: unknown }>`select to_jsonb(q.*) as r from (${query}) q`.execute(t.app.db);
    out[name] = rows.map(({ r }) => (typeof r === 'string' ? r : JSON.stringify(r))).sort();
  }
  return out;
}

describe('export-content: the content folder round trip', () => {
  let t: TestApp;
  let admin: TestClient;
  const dirs: string[] = [];
  beforeAll(async () => {
    const dir = tempDir();
    dirs.push(dir);
    fs.cpSync(REPO_CONTENT, dir, { recursive: true });
    t = await startTestApp({ CONTENT_DIR: dir });
    admin = await signedInUser(t, 'export.admin@example.com', { admin: true });
  });
  afterAll(async () => {
    await t?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const created = async (url: string, fields: Record<string, unknown>) => {
    const res = await admin.send('POST', url, fields, 'application/json');
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { data: { id: string } }).data;
  };
  /** A German translation written in the console (decision 063). */
  const translate = async (url: string, fields: Record<string, string>) => {
    const res = await admin.send('PUT', `${url}/translations/de`, { fields }, 'application/json');
    expect(res.status, await res.clone().text()).toBe(200);
  };

  it('a fresh portal from the exported folder holds the same content, and its export writes the same files', async () => {
    await created('/admin-api/content/pages', {
      title: 'Round trip page',
      path: '/round-trip-page',
      aliases: ['/page/round-trip'],
      body: '## Terms\n\nWith a [link](/faq) and *emphasis*.',
      state: 'published',
    });
    const draft = await created('/admin-api/content/articles', {
      title: 'Round trip draft',
      body: 'Not yet.',
      state: 'draft',
    });
    await translate(`/admin-api/content/articles/${draft.id}`, {
      title: 'Entwurf für die Rundreise',
      description: 'Kurz.',
      body: 'Noch *nicht*.',
    });
    await created('/admin-api/content/quickstart', {
      title: 'Round trip story',
      weight: 7,
      disableForAnonymous: true,
      steps: [{ navigationUrl: '/', target: '#main', content: 'Welcome: here.' }],
      state: 'published',
    });

    const question = await created('/admin-api/content/faqs', {
      question: 'Round trip: does it keep *this*?',
      answer: 'Yes, with a [link](/faq-page).',
      category: null,
      weight: 5,
      state: 'published',
    });
    await translate(`/admin-api/content/faqs/${question.id}`, {
      question: 'Rundreise: bleibt *das*?',
      answer: 'Ja, mit einem [Link](/faq-page).',
    });
    const product = await created('/admin-api/catalog/products', {
      alias: 'round-trip-api-v1',
      productVersion: '1.0',
      title: 'Round trip API',
      label: 'NEW',
      description: '<p>Made in the console.</p>',
      weight: 9,
      category: null,
      commercial: true,
      deprecated: false,
      successor: null,
      retired: false,
      features: [{ title: 'Kept', description: '<p>Through the files</p>', icon: null }],
      advantages: [{ title: 'Fast', description: 'In seconds' }],
      related: [],
    });
    await created(`/admin-api/catalog/products/${product.id}/changelog`, {
      releaseVersion: '1.1',
      releaseDate: '2026-11-30',
      notes: '- **Offers** in EUR',
    });

    await translate(`/admin-api/catalog/products/${product.id}`, {
      title: 'Rundreise-API',
      description: '<p>In der Konsole <b>übersetzt</b>.</p>',
    });
    const pages = (await (await admin.get('/admin-api/content/pages?q=terms')).json()) as {
      data: { id: string; title: string }[];
    };
    const terms = pages.data.find((p) => p.title === 'Terms of use')!;
    await translate(`/admin-api/content/pages/${terms.id}`, {
      title: 'Nutzungsbedingungen (Konsole)',
      body: 'In der **Konsole** geändert.',
    });

    // A category's name translated in the console (the demo categories have theirs from the files).
    const newsCategories = (await (await admin.get('/admin-api/content/categories')).json()) as {
      data: { id: string; name: string }[];
    };
    const security = newsCategories.data.find((c) => c.name === 'Security')!;
    await translate(`/admin-api/content/categories/${security.id}`, { name: 'Sicherheit (Konsole)' });

    const dir = dirs[0]!;
    const result = await exportContent(t.app.db, t.app.storage, dir);
    expect(result.pages.written).toContain('pages/round-trip-page.md');
    expect(result.pages.translations).toContain('pages/terms.de.md');
    expect(fs.readFileSync(path.join(dir, 'pages/terms.de.md'), 'utf8')).toContain(
      'In der **Konsole** geändert.',
    );
    expect(result.stories).toBeGreaterThan(0);
    const exported = filesOf(dir);

    const fresh = await startTestApp({ CONTENT_DIR: dir });
    try {
      const [before, after] = [await contentOf(t), await contentOf(fresh)];
      expect(before.pages.some((p) => p.includes('/round-trip-page'))).toBe(true);
      expect(before.stories.some((p) => p.includes('Round trip story'))).toBe(true);
      expect(before.faqs.some((p) => p.includes('Round trip: does it keep'))).toBe(true);
      expect(before.changelog.some((p) => p.includes('round-trip-api-v1'))).toBe(true);
      for (const german of [
        'Entwurf für die Rundreise',
        'Rundreise: bleibt',
        'Rundreise-API',
        '(Konsole)',
        'Konten-API',
        'Sicherheit (Konsole)',
        'Zugang erhalten',
      ]) {
        expect(
          before.translations.some((r) => r.includes(german)),
          german,
        ).toBe(true);
      }
      for (const name of Object.keys(CONTENT) as (keyof typeof CONTENT)[]) {
        expect(after[name], name).toEqual(before[name]);
      }

      // Exporting the fresh portal into a copy of the folder changes no file.
      const again = tempDir();
      dirs.push(again);
      fs.cpSync(dir, again, { recursive: true });
      await exportContent(fresh.app.db, fresh.app.storage, again);
      expect(filesOf(again)).toEqual(exported);
    } finally {
      await fresh.close();
    }
  });
});
