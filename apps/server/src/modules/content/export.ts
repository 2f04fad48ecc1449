import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse, stringify } from 'yaml';
import type { Db } from '../../db/client.ts';
import {
  markdownTranslationText,
  translationEntry,
  translationsOfKind,
  type TranslatedFields,
} from '../../lib/translations.ts';
import { contentDb } from './tables.ts';
import {
  ARTICLE_TRANSLATION_FIELDS,
  CATEGORY_TRANSLATION_FIELDS,
  FAQ_TRANSLATION_FIELDS,
} from './translatable.ts';

/**
 * Writes the articles of the database back to content/blog/articles/*.md in the format the import
 * reads (README.md 'Console'), so that what was edited in the console can be kept in git. An
 * article keeps its file name; one made in the console gets one from its path (or its uuid), and
 * the database remembers it. Files of articles that no longer exist are removed. The categories
 * file is written when it lists other categories (or another order) than the database's; the
 * authors file only when the folder has none (the console does not edit authors). An article's
 * translations go to `<name>.<langcode>.md` beside it (decision 063).
 */
export interface ExportResult {
  written: string[];
  /** The articles' translation files (`<name>.<langcode>.md`). */
  translations: string[];
  removed: string[];
}

function slugOf(articlePath: string | null, uuid: string): string {
  const last = articlePath?.split('/').filter(Boolean).pop() ?? '';
  const slug = last
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || `article-${uuid.slice(0, 8)}`;
}

export async function exportArticles(db: Db, contentDir: string): Promise<ExportResult> {
  const result: ExportResult = { written: [], translations: [], removed: [] };
  const cdb = contentDb(db);
  const rows = await cdb
    .selectFrom('articles as a')
    .leftJoin('news_categories as c', 'c.id', 'a.category_id')
    .leftJoin('article_authors as au', 'au.id', 'a.author_id')
    .select([
      'a.id',
      'a.uuid',
      'a.title',
      'a.path',
      'a.description',
      'a.body_markdown',
      'a.body_html',
      'a.image_url',
      'a.image_alt',
      'a.published',
      'a.publish_at',
      'a.internal',
      'a.scrollspy_visible',
      'a.created',
      'a.source_file',
      'c.name as category',
      'au.key as author',
    ])
    .orderBy('a.id')
    .execute();

  const blogDir = path.join(contentDir, 'blog');
  const articlesDir = path.join(blogDir, 'articles');
  fs.mkdirSync(articlesDir, { recursive: true });

  const translations = await translationsOfKind(db, 'article');
  const taken = new Set(rows.flatMap((r) => (r.source_file ? [r.source_file] : [])));
  const names = new Map<number, string>();
  for (const r of rows) {
    if (r.source_file?.startsWith('blog/articles/') && r.source_file.endsWith('.md')) {
      names.set(r.id, r.source_file);
      continue;
    }
    const base = slugOf(r.path, r.uuid);
    let name = `blog/articles/${base}.md`;
    for (let i = 2; taken.has(name); i++) name = `blog/articles/${base}-${i}.md`;
    taken.add(name);
    names.set(r.id, name);
    // Remembered, so that the import matches the file to this article (the console's edit keeps
    // the database's version: README 'Console').
    await cdb.updateTable('articles').set({ source_file: name }).where('id', '=', r.id).execute();
  }

  for (const r of rows) {
    const meta: Record<string, unknown> = { title: r.title };
    if (r.path) meta.path = r.path;
    if (r.description) meta.description = r.description;
    if (r.category) meta.category = r.category;
    if (r.author) meta.author = r.author;
    meta.created = new Date(r.created).toISOString();
    if (r.image_url) meta.image = { url: r.image_url, alt: r.image_alt ?? '' };
    if (!r.published) {
      if (r.publish_at) meta.publishAt = new Date(r.publish_at).toISOString();
      else meta.published = false;
    }
    if (r.internal) meta.internal = true;
    if (r.scrollspy_visible) meta.scrollspy = true;
    const body = (r.body_markdown ?? r.body_html).trim();
    const text = `---\n${stringify(meta, { lineWidth: 0 }).trimEnd()}\n---\n\n${body}\n`;
    const file = names.get(r.id)!;
    fs.writeFileSync(path.join(contentDir, file), text);
    result.written.push(file);
    for (const [langcode, fields] of translations.get(r.uuid) ?? []) {
      const translation = file.replace(/\.md$/i, `.${langcode}.md`);
      fs.writeFileSync(
        path.join(contentDir, translation),
        markdownTranslationText(ARTICLE_TRANSLATION_FIELDS, fields),
      );
      result.translations.push(translation);
    }
  }

  const written = new Set([...result.written, ...result.translations]);
  for (const f of fs.readdirSync(articlesDir)) {
    const rel = `blog/articles/${f}`;
    if (/\.md$/i.test(f) && !written.has(rel)) {
      fs.rmSync(path.join(articlesDir, f));
      result.removed.push(rel);
    }
  }

  // The categories (edited in the console too) with their translations (decision 063): written
  // when the file lists others, another order or other translations.
  const categoriesFile = path.join(blogDir, 'categories.yaml');
  const categoryTranslations = await translationsOfKind(db, 'news_category');
  const categories = (
    await cdb
      .selectFrom('news_categories')
      .select(['uuid', 'name'])
      .orderBy('weight')
      .orderBy('name')
      .orderBy('id')
      .execute()
  ).map((c) => ({ name: c.name, ...categoryTranslationsBlock(categoryTranslations.get(c.uuid)) }));
  const listed = fs.existsSync(categoriesFile)
    ? (parse(fs.readFileSync(categoriesFile, 'utf8')) as unknown)
    : null;
  if (!isDeepStrictEqual(listed, categories)) {
    fs.writeFileSync(
      categoriesFile,
      '# News categories of the blog (GET /jsonapi/taxonomy_term/news_categories), in display order.\n' +
        stringify(categories, { lineWidth: 0 }),
    );
  }
  const authorsFile = path.join(blogDir, 'authors.yaml');
  if (!fs.existsSync(authorsFile)) {
    const authors = await cdb.selectFrom('article_authors').selectAll().orderBy('id').execute();
    fs.writeFileSync(
      authorsFile,
      stringify(
        authors.map((a) => ({
          key: a.key,
          name: a.name,
          ...(a.first_name ? { firstName: a.first_name } : {}),
          ...(a.last_name ? { lastName: a.last_name } : {}),
          ...(a.image_url ? { image: a.image_url } : {}),
        })),
      ),
    );
  }
  return result;
}

/**
 * Writes the FAQ of the database to `<dir>/faq.yaml` in the import's format (README.md 'Console:
 * FAQ'): the categories in their order with their questions in theirs, then the questions of no
 * category. Drafts are written too, with `published: false`, so that the file keeps everything
 * the console holds; an empty category is kept with no questions. A question's translations are
 * its `translations` block (decision 063).
 */
export async function exportFaq(db: Db, contentDir: string): Promise<{ questions: number }> {
  const cdb = contentDb(db);
  const categories = await cdb
    .selectFrom('faq_categories')
    .select(['id', 'uuid', 'name'])
    .orderBy('weight')
    .orderBy('name')
    .orderBy('id')
    .execute();
  const faqs = await cdb
    .selectFrom('faqs')
    .select([
      'uuid',
      'question',
      'answer_markdown',
      'answer_html',
      'category_id',
      'published',
      'publish_at',
      'weight',
    ])
    .orderBy('weight')
    .orderBy('id')
    .execute();
  // The import gives a question its place in the file as its weight (importer.ts): a weight that
  // differs from that place is written out, so that the round trip keeps it.
  let place = 0;
  const translations = await translationsOfKind(db, 'faq');
  const categoryTranslations = await translationsOfKind(db, 'faq_category');
  const translationsOf = (uuid: string) => {
    const of = translations.get(uuid);
    if (!of?.size) return {};
    return {
      translations: Object.fromEntries(
        [...of].map(([langcode, fields]) => [langcode, translationEntry(FAQ_TRANSLATION_FIELDS, fields)]),
      ),
    };
  };
  const entry = (f: (typeof faqs)[number]) => ({
    question: f.question,
    answer: (f.answer_markdown ?? f.answer_html).trim(),
    ...(f.weight === place++ ? {} : { weight: f.weight }),
    ...(f.published
      ? {}
      : f.publish_at
        ? { publishAt: new Date(f.publish_at).toISOString() }
        : { published: false }),
    ...translationsOf(f.uuid),
  });
  const known = new Set(categories.map((c) => c.id));
  const doc = {
    categories: categories.map((c) => ({
      name: c.name,
      ...categoryTranslationsBlock(categoryTranslations.get(c.uuid)),
      questions: faqs.filter((f) => f.category_id === c.id).map(entry),
    })),
    questions: faqs.filter((f) => f.category_id === null || !known.has(f.category_id)).map(entry),
  };
  const header =
    '# Frequently asked questions (GET /jsonapi/node/faq?include=field_category). Answers are Markdown.\n' +
    '# Categories are shown in this order; the questions without a category come after them.\n' +
    '# Written by `npm run portal -- export-content`; `published: false` marks a draft, `publishAt` a scheduled question.\n';
  fs.writeFileSync(path.join(contentDir, 'faq.yaml'), header + stringify(doc, { lineWidth: 0 }));
  return { questions: faqs.length };
}

/** A category's `translations` block (`{ de: { name } }`, decision 063); none without translations. */
function categoryTranslationsBlock(of: ReadonlyMap<string, TranslatedFields> | undefined) {
  if (!of?.size) return {};
  return {
    translations: Object.fromEntries(
      [...of].map(([langcode, fields]) => [langcode, translationEntry(CATEGORY_TRANSLATION_FIELDS, fields)]),
    ),
  };
}
