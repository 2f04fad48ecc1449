import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { parse } from 'yaml';
import { z } from 'zod';
import type { ContentImporter } from '../../content/content-importer.ts';
import type { Db } from '../../db/client.ts';
import type { Locale } from '@portico/contracts/locales';
import {
  fileTranslations,
  markdownTranslation,
  translationFileName,
  writeFileTranslations,
  type FileTranslationsResult,
  type TranslatedFields,
} from '../../lib/translations.ts';
import { loadPageFiles, normalizeAlias, renderMarkdown } from '../pages/service.ts';
import { CONTENT_IMAGES_PATH, folderImages, internalLinks, leadsNowhere, type LinkTargets } from './links.ts';
import { ARTICLE_SEARCH, contentRepo, FAQ_SEARCH, type FaqInput } from './repo.ts';
import { contentDb } from './tables.ts';
import {
  ARTICLE_TRANSLATION_FIELDS,
  CATEGORY_TRANSLATION_FIELDS,
  FAQ_TRANSLATION_FIELDS,
} from './translatable.ts';

/**
 * content/blog (categories.yaml, authors.yaml, articles/*.md, images/) and content/faq.yaml
 * (README.md 'Content'). Everything is validated, and every internal link checked, before the
 * first write: a broken file or link stops the start with a message naming the file and line.
 */

/** Part of every article hash: raise it when the rendering changes. */
const RENDERING = 'content-2';
export { CONTENT_IMAGES_PATH, internalLinks } from './links.ts';

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

const imageSchema = z
  .object({
    url: z
      .string()
      .trim()
      .regex(/^(https?:\/\/|\/)/, 'must be an http(s) URL or a path starting with /'),
    alt: z.string().default(''),
  })
  .strict();

const articleFrontMatter = z
  .object({
    title: z.string().trim().min(1),
    /** The article's address, e.g. /blog/instant-payments; without one it stays out of lists. */
    path: z.string().trim().optional(),
    description: z.string().trim().default(''),
    category: z.string().trim().min(1).optional(),
    /** The key of an author of content/blog/authors.yaml. */
    author: z.string().trim().min(1).optional(),
    created: z.union([z.date(), z.string().trim().min(1)]).transform((v, ctx) => {
      const d = v instanceof Date ? v : new Date(v);
      if (Number.isNaN(d.getTime())) {
        ctx.addIssue({ code: 'custom', message: 'must be a date such as 2026-03-14' });
        return z.NEVER;
      }
      return d;
    }),
    image: imageSchema.optional(),
    published: z.boolean().default(true),
    /** A scheduled publication (ISO date-time): the article stays unpublished until then. */
    publishAt: z
      .union([z.date(), z.string().trim().min(1)])
      .transform((v, ctx) => {
        const d = v instanceof Date ? v : new Date(v);
        if (Number.isNaN(d.getTime())) {
          ctx.addIssue({ code: 'custom', message: 'must be a date-time such as 2026-03-14T09:00:00Z' });
          return z.NEVER;
        }
        return d;
      })
      .optional(),
    internal: z.boolean().default(false),
    scrollspy: z.boolean().default(false),
  })
  .strict();

/** A category's `translations`: `{ de: { name } }` (decision 063), checked by the translatable fields. */
const categoryTranslations = z.record(z.string(), z.unknown()).optional();
const categoriesSchema = z.array(
  z.object({ name: z.string().trim().min(1), translations: categoryTranslations }).strict(),
);
const authorsSchema = z.array(
  z
    .object({
      key: z
        .string()
        .trim()
        .regex(/^[a-z0-9-]+$/, 'letters, digits and - only'),
      name: z.string().trim().min(1),
      firstName: z.string().trim().optional(),
      lastName: z.string().trim().optional(),
      image: z.string().trim().optional(),
    })
    .strict(),
);
const faqQuestion = z
  .object({
    question: z.string().trim().min(1),
    answer: z.string().trim().min(1),
    /** A draft (written by the export): on no public page and not in the search. */
    published: z.boolean().default(true),
    /** A scheduled publication (ISO date-time): the question stays unpublished until then. */
    publishAt: z.iso.datetime({ offset: true }).optional(),
    /** The order (smaller first); left out: the question's place in the file (0, 1, ...). */
    weight: z.number().int().min(-1_000_000).max(1_000_000).optional(),
    /** `{ de: { question, answer } }` (decision 063): checked by the translatable fields. */
    translations: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
const faqSchema = z
  .object({
    categories: z
      .array(
        z
          .object({
            name: z.string().trim().min(1),
            translations: categoryTranslations,
            questions: z.array(faqQuestion).default([]),
          })
          .strict(),
      )
      .default([]),
    /** Questions of no category: shown after the categories. */
    questions: z.array(faqQuestion).default([]),
  })
  .strict();

export interface ArticleFile {
  file: string;
  hash: string;
  meta: z.infer<typeof articleFrontMatter>;
  path: string | null;
  body: string;
  /** The Markdown below the front matter, trimmed. */
  markdown: string;
  /** Internal links of the file, with their line numbers. */
  links: { line: number; target: string }[];
  /** Its `<name>.<langcode>.md` siblings (decision 063), by language. */
  translations: Map<Locale, TranslatedFields>;
}

function issues(file: string, error: z.ZodError): Error {
  const lines = error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
  return new Error(`content/${file} is invalid:\n${lines.join('\n')}`);
}

function yamlFile<T>(file: string, text: string, schema: z.ZodType<T>): T {
  let data: unknown;
  try {
    data = parse(text);
  } catch (err) {
    throw new Error(`content/${file} is not valid YAML: ${(err as Error).message}`, { cause: err });
  }
  const parsed = schema.safeParse(data ?? undefined);
  if (!parsed.success) throw issues(file, parsed.error);
  return parsed.data;
}

/** Parses one article file; a broken file throws a message naming it. */
export function parseArticleFile(file: string, text: string): ArticleFile {
  const source = text.replace(/^\uFEFF/, '');
  const match = FRONT_MATTER.exec(source);
  if (!match) throw new Error(`content/${file} must start with a YAML front matter between '---' lines`);
  const meta = yamlFile(file, match[1] ?? '', articleFrontMatter);
  let articlePath: string | null = null;
  if (meta.path !== undefined) {
    articlePath = normalizeAlias(meta.path) ?? null;
    if (!articlePath || !meta.path.startsWith('/')) {
      throw new Error(`content/${file}: '${meta.path}' is not a path such as /blog/instant-payments`);
    }
    if (!articlePath.startsWith('/blog/')) {
      throw new Error(`content/${file}: the path ${articlePath} must start with /blog/`);
    }
  }
  const markdown = source.slice(match[0].length);
  const bodyLine = source.slice(0, match[0].length).split('\n').length;
  const body = renderMarkdown(markdown).trim();
  if (!body) throw new Error(`content/${file} has no text below its front matter`);
  const links = internalLinks(markdown, bodyLine);
  if (meta.image?.url.startsWith('/')) {
    const line = source.split(/\r?\n/).findIndex((l) => l.includes(meta.image!.url)) + 1;
    links.push({ line: line || 1, target: meta.image.url });
  }
  return {
    file,
    hash: createHash('sha256').update(`${RENDERING}\0${source}`).digest('hex'),
    meta,
    path: articlePath,
    body,
    markdown: markdown.trim(),
    links,
    translations: new Map(),
  };
}

export interface LoadedContent {
  categories: string[];
  /** The translations of categories.yaml's categories, by name (as the file writes it). */
  categoryTranslations: Map<string, Map<Locale, TranslatedFields>>;
  authors: z.infer<typeof authorsSchema>;
  articles: ArticleFile[];
  faq: z.infer<typeof faqSchema> | undefined;
  /** The translations of faq.yaml's questions, by question (as the file writes it). */
  faqTranslations: Map<string, Map<Locale, TranslatedFields>>;
  /** The translations of faq.yaml's categories, by name. */
  faqCategoryTranslations: Map<string, Map<Locale, TranslatedFields>>;
  /** The sha256 of faq.yaml: an unchanged file is not imported again (README.md 'Console: FAQ'). */
  faqHash: string | undefined;
}

/** Reads and checks content/blog and content/faq.yaml (nothing written). */
export function loadContent(contentDir: string): LoadedContent {
  const read = (rel: string) => {
    const file = path.join(contentDir, rel);
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  };
  const categoriesText = read('blog/categories.yaml');
  const categoryEntries = categoriesText
    ? yamlFile('blog/categories.yaml', categoriesText, categoriesSchema)
    : [];
  const categories = categoryEntries.map((c) => c.name);
  const categoryTranslations = new Map(
    categoryEntries.map((c, i) => [
      c.name,
      fileTranslations(
        'blog/categories.yaml',
        CATEGORY_TRANSLATION_FIELDS,
        c.translations,
        `${i}.translations`,
      ),
    ]),
  );
  const authorsText = read('blog/authors.yaml');
  const authors = authorsText ? yamlFile('blog/authors.yaml', authorsText, authorsSchema) : [];
  const dir = path.join(contentDir, 'blog', 'articles');
  const names = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => /\.md$/i.test(f))
        .sort()
    : [];
  // `<name>.<langcode>.md`: a translation of `<name>.md` (decision 063), not an article of its own.
  const articles = names
    .filter((f) => !translationFileName(f))
    .map((f) => parseArticleFile(`blog/articles/${f}`, fs.readFileSync(path.join(dir, f), 'utf8')));
  const translationLinks: { file: string; line: number; target: string }[] = [];
  for (const f of names) {
    const name = translationFileName(f);
    if (!name) continue;
    const article = articles.find((a) => a.file === `blog/articles/${name.base}`);
    const file = `blog/articles/${f}`;
    if (!article)
      throw new Error(`content/${file} translates content/blog/articles/${name.base}, which does not exist`);
    const t = markdownTranslation(
      file,
      fs.readFileSync(path.join(dir, f), 'utf8'),
      ARTICLE_TRANSLATION_FIELDS,
    );
    article.translations.set(t.langcode, t.fields);
    for (const l of internalLinks(t.markdown, t.bodyLine)) translationLinks.push({ file, ...l });
  }
  const faqText = read('faq.yaml');
  const faq = faqText ? yamlFile('faq.yaml', faqText, faqSchema) : undefined;
  const faqTranslations = new Map<string, Map<Locale, TranslatedFields>>();
  const faqEntries = [
    ...(faq?.categories ?? []).flatMap((c, i) =>
      c.questions.map((q, j) => ({ q, at: `categories.${i}.questions.${j}.translations` })),
    ),
    ...(faq?.questions ?? []).map((q, j) => ({ q, at: `questions.${j}.translations` })),
  ];
  for (const { q, at } of faqEntries) {
    faqTranslations.set(q.question, fileTranslations('faq.yaml', FAQ_TRANSLATION_FIELDS, q.translations, at));
  }
  const faqCategoryTranslations = new Map(
    (faq?.categories ?? []).map((c, i) => [
      c.name,
      fileTranslations(
        'faq.yaml',
        CATEGORY_TRANSLATION_FIELDS,
        c.translations,
        `categories.${i}.translations`,
      ),
    ]),
  );

  // Cross-file checks: categories and authors named by articles exist, paths are unique.
  const paths = new Map<string, string>();
  for (const a of articles) {
    if (a.meta.category && !categories.includes(a.meta.category)) {
      throw new Error(
        `content/${a.file}: the category '${a.meta.category}' is not in content/blog/categories.yaml`,
      );
    }
    if (a.meta.author && !authors.some((x) => x.key === a.meta.author)) {
      throw new Error(`content/${a.file}: the author '${a.meta.author}' is not in content/blog/authors.yaml`);
    }
    if (a.path) {
      const other = paths.get(a.path);
      if (other) throw new Error(`content/${other} and content/${a.file} both use the path ${a.path}`);
      paths.set(a.path, a.file);
    }
  }

  // Internal links: to an article, a basic page, a page of the web app or a content image.
  const pageAliases = new Set(loadPageFiles(contentDir).flatMap((p) => p.aliases));
  const isImage = folderImages(contentDir);
  const targets: LinkTargets = {
    isPath: (alias) => paths.has(alias) || pageAliases.has(alias),
    isImage,
  };
  const broken: string[] = [];
  const check = (file: string, line: number, target: string) => {
    if (leadsNowhere(target, targets))
      broken.push(`content/${file}:${line}: the link ${target} leads nowhere`);
  };
  for (const a of articles) for (const l of a.links) check(a.file, l.line, l.target);
  for (const l of translationLinks) check(l.file, l.line, l.target);
  if (faqText) {
    for (const l of internalLinks(faqText)) check('faq.yaml', l.line, l.target);
  }
  for (const au of authors) {
    if (au.image?.startsWith(CONTENT_IMAGES_PATH)) {
      const line = authorsText!.split(/\r?\n/).findIndex((l) => l.includes(au.image!)) + 1;
      check('blog/authors.yaml', line, au.image);
    }
  }
  if (broken.length) throw new Error(`Broken internal links in content:\n  ${broken.join('\n  ')}`);
  const faqHash = faqText ? createHash('sha256').update(`${RENDERING}\0${faqText}`).digest('hex') : undefined;
  return {
    categories,
    categoryTranslations,
    authors,
    articles,
    faq,
    faqTranslations,
    faqCategoryTranslations,
    faqHash,
  };
}

export interface ContentImportResult {
  created: string[];
  replaced: string[];
  unchanged: string[];
  /** Files whose article was edited in the console since: the database's version is kept. */
  kept: string[];
  removed: number;
  /** faq.yaml: imported, unchanged since the last import (left alone), or absent. */
  faq: 'imported' | 'unchanged' | 'none';
  /** Questions of faq.yaml edited in the console since: the database's version is kept. */
  faqKept: string[];
  /** Translations written, kept (edited in the console since) and removed, of both kinds. */
  translations: FileTranslationsResult;
}

/** Imports the blog and the FAQs (also used by tests with a folder of their own). */
export async function importBlogAndFaq(db: Db, contentDir: string): Promise<ContentImportResult> {
  const result: ContentImportResult = {
    created: [],
    replaced: [],
    unchanged: [],
    kept: [],
    removed: 0,
    faq: 'none',
    faqKept: [],
    translations: { written: 0, kept: 0, removed: 0 },
  };
  const count = (r: FileTranslationsResult) => {
    result.translations.written += r.written;
    result.translations.kept += r.kept;
    result.translations.removed += r.removed;
  };
  const content = loadContent(contentDir);
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('portico:blog-content'))`.execute(trx);
    const repo = contentRepo(trx);
    const categoryIds = new Map<string, number>();
    for (const [weight, name] of content.categories.entries()) {
      categoryIds.set(name, await repo.upsertNewsCategory(name, weight));
    }
    // The categories' translations (decision 063), by their ids (the console's).
    count(
      await writeFileTranslations(
        trx,
        'news_category',
        await categoryUuids(trx, 'news_categories', [...categoryIds.values()], content.categoryTranslations),
      ),
    );
    const authorIds = new Map<string, number>();
    for (const a of content.authors) {
      authorIds.set(
        a.key,
        await repo.upsertAuthor({
          key: a.key,
          name: a.name,
          firstName: a.firstName ?? null,
          lastName: a.lastName ?? null,
          imageUrl: a.image ?? null,
        }),
      );
    }
    const cdb = contentDb(trx);
    const known = new Map(
      (
        await cdb
          .selectFrom('articles')
          .select(['id', 'uuid', 'source_file', 'source_hash', 'edited_at'])
          .where('source_file', 'is not', null)
          .execute()
      ).map((r) => [r.source_file!, r]),
    );
    // The articles' translations: each file's own, written after its article (decision 063).
    const translated: { id: string; translations: Map<Locale, TranslatedFields> }[] = [];
    for (const a of content.articles) {
      const existing = known.get(a.file);
      known.delete(a.file);
      if (existing) translated.push({ id: existing.uuid, translations: a.translations });
      if (existing?.source_hash === a.hash) {
        result.unchanged.push(a.file);
        continue;
      }
      // Edited in the console since it was imported: the browser's version wins (README 'Console').
      if (existing?.edited_at) {
        result.kept.push(a.file);
        continue;
      }
      if (a.path) {
        // A path an article edited in the console holds stays its own: the file waits.
        const held = await cdb
          .selectFrom('articles')
          .select('id')
          .where('path', '=', a.path)
          .where('edited_at', 'is not', null)
          .executeTakeFirst();
        if (held) {
          result.kept.push(a.file);
          continue;
        }
        // A path another (hand-made) article holds would break the unique index: take it over.
        await cdb
          .updateTable('articles')
          .set({ path: null })
          .where('path', '=', a.path)
          .where((eb) => eb.or([eb('source_file', 'is', null), eb('source_file', '<>', a.file)]))
          .execute();
      }
      const saved = await repo.saveArticle(
        {
          title: a.meta.title,
          path: a.path,
          description: a.meta.description,
          body: a.body,
          bodyMarkdown: a.markdown,
          image: a.meta.image ? { url: a.meta.image.url, alt: a.meta.image.alt } : null,
          categoryId: a.meta.category ? (categoryIds.get(a.meta.category) ?? null) : null,
          authorId: a.meta.author ? (authorIds.get(a.meta.author) ?? null) : null,
          published: a.meta.publishAt ? false : a.meta.published,
          publishAt: a.meta.publishAt ?? null,
          internal: a.meta.internal,
          scrollspyVisible: a.meta.scrollspy,
          created: a.meta.created,
          sourceFile: a.file,
          sourceHash: a.hash,
        },
        existing,
      );
      if (!existing) translated.push({ id: saved.uuid, translations: a.translations });
      (existing ? result.replaced : result.created).push(a.file);
    }
    count(await writeFileTranslations(trx, 'article', translated, ARTICLE_SEARCH));
    // A file that went away takes its article (and search row) with it, unless the article was
    // edited in the console since.
    const gone = [...known.values()].filter((r) => !r.edited_at);
    await repo.deleteArticles(gone.map((r) => r.id));
    result.removed = gone.length;

    if (content.faq && content.faqHash) {
      // The last imported faq.yaml is remembered: an unchanged file leaves the FAQ as the console
      // left it (renamed or deleted categories and questions too); a changed one is imported,
      // except the questions edited in the console since (README.md 'Console: FAQ').
      const key = `faq.yaml:${content.faqHash}`;
      await trx
        .deleteFrom('content_imports')
        .where('key', 'like', 'faq.yaml:%')
        .where('key', '<>', key)
        .execute();
      const claimed = await trx
        .insertInto('content_imports')
        .values({ key })
        .onConflict((oc) => oc.doNothing())
        .returning('key')
        .executeTakeFirst();
      if (!claimed) result.faq = 'unchanged';
      else {
        const faqs: FaqInput[] = [];
        const add = (
          q: {
            question: string;
            answer: string;
            published: boolean;
            publishAt?: string | undefined;
            weight?: number | undefined;
          },
          categoryId: number | null,
        ) =>
          faqs.push({
            question: q.question,
            answer: renderMarkdown(q.answer),
            answerMarkdown: q.answer,
            categoryId,
            weight: q.weight ?? faqs.length,
            published: q.publishAt ? false : q.published,
            publishAt: q.publishAt ? new Date(q.publishAt) : null,
          });
        const faqCategoryIds: number[] = [];
        for (const [weight, c] of content.faq.categories.entries()) {
          const id = await repo.upsertFaqCategory(c.name, weight);
          faqCategoryIds.push(id);
          for (const q of c.questions) add(q, id);
        }
        count(
          await writeFileTranslations(
            trx,
            'faq_category',
            await categoryUuids(trx, 'faq_categories', faqCategoryIds, content.faqCategoryTranslations),
          ),
        );
        for (const q of content.faq.questions) add(q, null);
        result.faqKept = (await repo.replaceFaqs(faqs)).kept;
        result.faq = 'imported';
        const questions = [...content.faqTranslations.keys()];
        const rows = questions.length
          ? await cdb
              .selectFrom('faqs')
              .select(['uuid', 'question'])
              .where('question', 'in', questions)
              .execute()
          : [];
        count(
          await writeFileTranslations(
            trx,
            'faq',
            rows.map((r) => ({ id: r.uuid, translations: content.faqTranslations.get(r.question)! })),
            FAQ_SEARCH,
          ),
        );
      }
    }
  });
  return result;
}

/** The imported categories (`ids`) with their file translations, keyed by their uuids. */
async function categoryUuids(
  db: Db,
  table: 'news_categories' | 'faq_categories',
  ids: readonly number[],
  translations: ReadonlyMap<string, Map<Locale, TranslatedFields>>,
): Promise<{ id: string; translations: Map<Locale, TranslatedFields> }[]> {
  if (!ids.length) return [];
  // The two tables have the same columns: typed as the FAQ's.
  const rows = await contentDb(db)
    .selectFrom(table as 'faq_categories')
    .select(['uuid', 'name'])
    .where('id', 'in', [...ids])
    .execute();
  return rows.map((r) => ({ id: r.uuid, translations: translations.get(r.name) ?? new Map() }));
}

export const contentImporter: ContentImporter = {
  name: 'content',
  async run({ db, contentDir, log }) {
    const result = await importBlogAndFaq(db, contentDir);
    log.debug({ result }, 'blog and FAQ content');
  },
};
