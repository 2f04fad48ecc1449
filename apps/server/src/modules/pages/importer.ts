import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { Marked } from 'marked';
import { parse } from 'yaml';
import { z } from 'zod';
import type { ContentImporter } from '../../content/content-importer.ts';
import type { Db } from '../../db/client.ts';
import { cleanHtml } from '../../lib/content-html.ts';
import {
  markdownTranslation,
  translationFileName,
  writeFileTranslations,
  type FileTranslationsResult,
  type TranslatableField,
  type TranslatedFields,
} from '../../lib/translations.ts';
import type { Locale } from '@portico/contracts/locales';
import { API_PREFIXES } from '../../plugins/web-app.ts';
import { userByEmail } from '../identity/service.ts';
import { normalizeAlias, PAGE_SEARCH, pagesRepo, type PageInput } from './repo.ts';

/**
 * content/pages/*.md (README.md 'Content'): YAML front matter, then Markdown. The provider's own
 * pages: a file whose text changed replaces the page it imported before (matched by its first
 * alias); an unchanged file (same hash) costs one lookup; pages created otherwise are never
 * touched, and nothing is removed when a file goes away.
 */

/**
 * Part of every hash: raise it when the rendering changes, so that every page is rendered again.
 * 'marked-2': the pages keep their Markdown too (migration 0277), which the import fills in.
 */
const RENDERING = 'marked-2';

const markdown = new Marked({ gfm: true });

/** Markdown to HTML (GitHub flavour). Raw HTML passes through: the repository sanitizes it. */
export function renderMarkdown(source: string): string {
  return markdown.parse(source, { async: false });
}

/**
 * A page's translatable fields (decision 063): title and body, rendered and sanitized as a save's.
 * One list for the console's translation routes and the `<name>.<langcode>.md` files.
 */
export const PAGE_TRANSLATION_FIELDS: Record<string, TranslatableField> = {
  title: { max: 255, required: true },
  body: { max: 500_000, html: (md) => cleanHtml(renderMarkdown(md).trim()) },
};

/**
 * What a translation replaces of a page (decision 063): its title and body together; without a
 * title nothing. The one rule of the page's JSON and its Markdown.
 */
export function pageTranslation(t: TranslatedFields): { title: string; body: string } | undefined {
  return t.title ? { title: t.title, body: t.bodyHtml ?? '' } : undefined;
}

const aliasList = z
  .union([z.string(), z.array(z.string()).min(1)])
  .transform((v) => (Array.isArray(v) ? v : [v]));

const frontMatter = z
  .object({
    title: z.string().trim().min(1),
    /** One alias or a list; the first one is the page's canonical alias. */
    alias: aliasList.optional(),
    aliases: aliasList.optional(),
    /** Shows the table of contents built from the headings (field_scrollspy_visible). */
    scrollspy: z.boolean().default(false),
    /** `false`: a draft, which no visitor sees (the console's export writes it for drafts). */
    published: z.boolean().default(true),
    /** A scheduled publication (ISO date-time): the page stays unpublished until then. */
    publishAt: z.iso.datetime({ offset: true }).optional(),
    image: z
      .object({
        url: z
          .string()
          .trim()
          .regex(/^(https?:\/\/|\/)/, 'must be an http(s) URL or a path starting with /'),
        alt: z.string().default(''),
      })
      .strict()
      .optional(),
    /** The e-mail of an existing user (content/users.yaml). */
    author: z.email().optional(),
    /** A cloud document shown instead of (or with) the body (field_google_drive_id). */
    googleDriveId: z.string().trim().min(1).optional(),
  })
  .strict();

export interface PageFile {
  /** Relative to content/, e.g. 'pages/privacy.md'. */
  file: string;
  hash: string;
  aliases: string[];
  author: string | undefined;
  page: Omit<PageInput, 'aliases' | 'authorId' | 'sourceHash' | 'sourceFile'>;
  /** Its `<name>.<langcode>.md` siblings (decision 063), by language. */
  translations: Map<Locale, TranslatedFields>;
}

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Parses and validates one page file; a broken file throws a message naming it. */
export function parsePageFile(file: string, text: string): PageFile {
  const source = text.replace(/^\uFEFF/, '');
  const match = FRONT_MATTER.exec(source);
  if (!match) {
    throw new Error(`content/${file} must start with a YAML front matter between '---' lines`);
  }
  let data: unknown;
  try {
    data = parse(match[1] ?? '') ?? {};
  } catch (err) {
    throw new Error(`content/${file}: the front matter is not valid YAML: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const parsed = frontMatter.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`content/${file} is invalid:\n${issues.join('\n')}`);
  }
  const meta = parsed.data;
  const given = [...(meta.alias ?? []), ...(meta.aliases ?? [])];
  if (!given.length) throw new Error(`content/${file} is invalid: it needs an alias, e.g. 'alias: /privacy'`);
  const aliases: string[] = [];
  for (const raw of given) {
    const alias = normalizeAlias(raw);
    if (!alias || !raw.trim().startsWith('/')) {
      throw new Error(
        `content/${file}: '${raw}' is not a path alias (a path like /privacy of letters, digits and ._~-)`,
      );
    }
    if (API_PREFIXES.some((p) => alias === p.replace(/\/$/, '') || alias.startsWith(p))) {
      throw new Error(`content/${file}: the alias ${alias} is a path of the portal's API`);
    }
    if (!aliases.includes(alias)) aliases.push(alias);
  }
  const markdownText = source.slice(match[0].length).trim();
  const body = renderMarkdown(markdownText).trim();
  if (!body && !meta.googleDriveId) throw new Error(`content/${file} has no text below its front matter`);
  return {
    file,
    hash: createHash('sha256').update(`${RENDERING}\0${source}`).digest('hex'),
    translations: new Map(),
    aliases,
    author: meta.author,
    page: {
      title: meta.title,
      body,
      bodyMarkdown: markdownText,
      image: meta.image ?? null,
      googleDriveId: meta.googleDriveId ?? null,
      scrollspyVisible: meta.scrollspy,
      published: meta.publishAt ? false : meta.published,
      publishAt: meta.publishAt ? new Date(meta.publishAt) : null,
    },
  };
}

/** Reads and validates content/pages/*.md, sorted by name; two files may not share an alias. */
export function loadPageFiles(contentDir: string): PageFile[] {
  const dir = path.join(contentDir, 'pages');
  if (!fs.existsSync(dir)) return [];
  const names = fs
    .readdirSync(dir)
    .filter((f) => /\.md$/i.test(f))
    .sort();
  // `<name>.<langcode>.md`: a translation of `<name>.md` (decision 063), not a page of its own.
  const files = names
    .filter((f) => !translationFileName(f))
    .map((f) => parsePageFile(`pages/${f}`, fs.readFileSync(path.join(dir, f), 'utf8')));
  for (const f of names) {
    const name = translationFileName(f);
    if (!name) continue;
    const page = files.find((p) => p.file === `pages/${name.base}`);
    if (!page)
      throw new Error(`content/pages/${f} translates content/pages/${name.base}, which does not exist`);
    const t = markdownTranslation(
      `pages/${f}`,
      fs.readFileSync(path.join(dir, f), 'utf8'),
      PAGE_TRANSLATION_FIELDS,
    );
    page.translations.set(t.langcode, t.fields);
  }
  const owners = new Map<string, string>();
  for (const f of files) {
    for (const alias of f.aliases) {
      const other = owners.get(alias);
      if (other) throw new Error(`content/${other} and content/${f.file} both use the alias ${alias}`);
      owners.set(alias, f.file);
    }
  }
  return files;
}

export interface PagesImportResult {
  /** Files by what the import did with them. */
  created: string[];
  replaced: string[];
  unchanged: string[];
  /** Their first alias names a page that was not imported: left alone. */
  skipped: string[];
  /** Their page was edited in the console since: the database's version is kept. */
  kept: string[];
  /** Translations (`<name>.<langcode>.md`) written, kept (edited in the console since), removed. */
  translations: FileTranslationsResult;
}

type Log = Pick<FastifyBaseLogger, 'info' | 'warn'>;

/** Imports content/pages (also used by tests with a folder of their own). */
export async function importPagesContent(db: Db, contentDir: string, log?: Log): Promise<PagesImportResult> {
  const result: PagesImportResult = {
    created: [],
    replaced: [],
    unchanged: [],
    skipped: [],
    kept: [],
    translations: { written: 0, kept: 0, removed: 0 },
  };
  // Rendering happens before the transaction: a broken file stops the start before any write.
  const files = loadPageFiles(contentDir);
  if (!files.length) return result;
  await db.transaction().execute(async (trx) => {
    // Several instances starting together: one imports, the others wait and find it done.
    await sql`select pg_advisory_xact_lock(hashtext('portico:pages-content'))`.execute(trx);
    const pages = pagesRepo(trx);
    // The pages' translations: each file's own, written after its page (decision 063).
    const translated: { id: string; translations: Map<Locale, TranslatedFields> }[] = [];
    for (const f of files) {
      const canonical = f.aliases[0]!;
      const owner = await pages.findOwner(canonical);
      if (owner && owner.source_hash === f.hash) {
        result.unchanged.push(f.file);
        translated.push({ id: owner.uuid, translations: f.translations });
        continue;
      }
      // Edited in the console since: the browser's version wins (README.md 'Console').
      if (owner?.edited_at) {
        result.kept.push(f.file);
        translated.push({ id: owner.uuid, translations: f.translations });
        continue;
      }
      if (owner && owner.source_hash === null) {
        log?.warn(
          { file: f.file, alias: canonical },
          'a page not imported from content has this alias: left alone',
        );
        result.skipped.push(f.file);
        continue;
      }
      let authorId: number | null = null;
      if (f.author) {
        authorId = (await userByEmail(trx, f.author))?.id ?? null;
        if (authorId === null) log?.warn({ file: f.file, author: f.author }, 'page author is not a user');
      }
      const input: PageInput = {
        ...f.page,
        aliases: f.aliases,
        authorId,
        sourceHash: f.hash,
        sourceFile: f.file,
      };
      const { uuid, takenAliases } = owner
        ? { uuid: owner.uuid, ...(await pages.replace(owner.id, input)) }
        : await pages.create(input);
      translated.push({ id: uuid, translations: f.translations });
      if (takenAliases.length) {
        log?.warn({ file: f.file, aliases: takenAliases }, 'aliases another page has: left to it');
      }
      (owner ? result.replaced : result.created).push(f.file);
      log?.info({ file: f.file, alias: canonical }, owner ? 'page replaced' : 'page imported');
    }
    result.translations = await writeFileTranslations(trx, 'page', translated, PAGE_SEARCH);
  });
  return result;
}

export const pagesImporter: ContentImporter = {
  name: 'pages',
  async run({ db, contentDir, log }) {
    const result = await importPagesContent(db, contentDir, log);
    log.debug({ result }, 'pages content');
  },
};
