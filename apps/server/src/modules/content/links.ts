import fs from 'node:fs';
import path from 'node:path';
import { CONSOLE_IMAGES_PATH } from '@portico/contracts/console-images';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { sql, type RawBuilder } from 'kysely';
import { isWebRoute } from '@portico/contracts/web-routes';
import type { Db } from '../../db/client.ts';
import { escapeLike } from '../../jsonapi/kysely.ts';
import { HttpError } from '../../lib/errors.ts';
import { existingImageNames } from '../console-images/service.ts';
import { existingAliases, normalizeAlias } from '../pages/service.ts';
import { contentDb } from './tables.ts';

/**
 * The internal-link rule (README.md 'Internal links'), one for both sides: the import refuses to
 * start with a content file whose site-relative link leads nowhere, and the console refuses to
 * save such a text, so that what the console saves, export-content writes and the import reads
 * back. Each side says what exists (`LinkTargets`): the import from the files of content/, the
 * console from the database (in the save's transaction) and the image folders of content/.
 */

/** Where content/blog/images is served. */
export const CONTENT_IMAGES_PATH = '/blog-images/';

/** The image folders a link may point into: content/blog/images, catalog/images, images/console. */
export type ImageFolder = 'blog' | 'catalog' | 'console';

/** What exists, as one side knows it. */
export interface LinkTargets {
  /** An article's path or a basic page's alias (normalized, e.g. /blog/instant-payments). */
  isPath(alias: string): boolean;
  /** An image file `name` of a folder (a plain file name). */
  isImage(folder: ImageFolder, name: string): boolean;
}

/** Site-relative link targets of a Markdown or HTML text, with their (1-based) line numbers. */
export function internalLinks(text: string, firstLine = 1): { line: number; target: string }[] {
  const out: { line: number; target: string }[] = [];
  const patterns = [/\]\(\s*<?(\/[^)\s>]*)/g, /\b(?:href|src)\s*=\s*["'](\/[^"']*)["']/g];
  text.split(/\r?\n/).forEach((line, i) => {
    for (const re of patterns) {
      for (const m of line.matchAll(re)) {
        const target = m[1]!;
        if (!target.startsWith('//')) out.push({ line: firstLine + i, target });
      }
    }
  });
  return out;
}

/** What a link target needs to exist: nothing, an image of a folder, or an article or page. */
type Need =
  | { kind: 'none' }
  | { kind: 'image'; folder: ImageFolder; name: string | null }
  | { kind: 'path'; alias: string | null; bare: string };

function needOf(target: string): Need {
  const bare = target.split(/[?#]/, 1)[0] ?? '';
  if (bare === '' || bare === '/') return { kind: 'none' };
  const folder: ImageFolder | null = bare.startsWith(CONTENT_IMAGES_PATH)
    ? 'blog'
    : bare.startsWith('/catalog/images/')
      ? 'catalog'
      : bare.startsWith(CONSOLE_IMAGES_PATH)
        ? 'console'
        : null;
  if (folder) {
    const name = decodeURIComponent(bare.split('/').pop() ?? '');
    return { kind: 'image', folder, name: /^[A-Za-z0-9._-]+$/.test(name) ? name : null };
  }
  return { kind: 'path', alias: normalizeAlias(bare) ?? null, bare };
}

/** Whether the link `target` leads nowhere, given what exists. */
export function leadsNowhere(target: string, targets: LinkTargets): boolean {
  const need = needOf(target);
  if (need.kind === 'none') return false;
  if (need.kind === 'image') return !(need.name && targets.isImage(need.folder, need.name));
  if (need.alias && targets.isPath(need.alias)) return false;
  const { bare } = need;
  if (isWebRoute(bare) && !bare.startsWith('/blog/') && bare !== '/news') return false;
  if (['/blog', '/started', '/faq-page', '/search', '/news'].includes(bare.replace(/\/$/, ''))) return false;
  return true;
}

/** The image files of content/ (the folders the portal serves them from). */
export function folderImages(contentDir: string): LinkTargets['isImage'] {
  const dirs: Record<ImageFolder, string> = {
    blog: path.join(contentDir, 'blog', 'images'),
    catalog: path.join(contentDir, 'catalog', 'images'),
    // Uploaded in the console and written here by export-content (modules/console-images).
    console: path.join(contentDir, 'images', 'console'),
  };
  return (folder, name) => fs.existsSync(path.join(dirs[folder], name));
}

/**
 * What a console save links from, with the field it came from (a JSON pointer such as /body): a
 * text (its links), or one link (an image's address).
 */
export type SavedText = { pointer: string; text: string } | { pointer: string; target: string };

/**
 * The console's side: refuses (400, invalid_input, the pointer of the first field at fault) the
 * texts of a save with an internal link that leads nowhere, every broken link named. What exists
 * is read in `trx`, the save's transaction: a page created in the console just before counts.
 */
export async function refuseBrokenLinks(trx: Db, contentDir: string, texts: readonly SavedText[]) {
  const links = texts.flatMap((t) =>
    'target' in t
      ? [{ pointer: t.pointer, target: t.target }]
      : internalLinks(t.text).map((l) => ({ pointer: t.pointer, target: l.target })),
  );
  if (!links.length) return;
  const aliases = new Set<string>();
  const consoleNames = new Set<string>();
  for (const l of links) {
    const need = needOf(l.target);
    if (need.kind === 'path' && need.alias) aliases.add(need.alias);
    if (need.kind === 'image' && need.folder === 'console' && need.name) consoleNames.add(need.name);
  }
  const wanted = [...aliases];
  // One after the other: the queries share the transaction's connection.
  const articlePaths = wanted.length
    ? await contentDb(trx).selectFrom('articles').select('path').where('path', 'in', wanted).execute()
    : [];
  const pageAliases = await existingAliases(trx, wanted);
  const uploaded = await existingImageNames(trx, [...consoleNames]);
  const paths = new Set(articlePaths.map((r) => r.path));
  const inFolders = folderImages(contentDir);
  const targets: LinkTargets = {
    isPath: (alias) => paths.has(alias) || pageAliases.has(alias),
    isImage: (folder, name) => (folder === 'console' && uploaded.has(name)) || inFolders(folder, name),
  };
  const broken = links.filter((l) => leadsNowhere(l.target, targets));
  if (!broken.length) return;
  const seen = new Set<string>();
  const lines = broken
    .filter((l) => !seen.has(l.target) && seen.add(l.target))
    .map((l) => en.console.content.errors.linkNowhere.replace('{{target}}', l.target));
  throw new HttpError(400, lines.join('\n'), { code: 'invalid_input', pointer: broken[0]!.pointer });
}

/** An item whose text links to an address: its title and its console address. */
export interface LinkingItem {
  kind: 'article' | 'faq';
  title: string;
  /** Where the console edits it, e.g. /admin/content/articles/<uuid>. */
  address: string;
  /** Which of the addresses asked about it links to. */
  targets: string[];
}

/** At most this many linking items are named in a refusal. */
const LINKING_NAMED = 8;

/**
 * Which of `gone` (normalized article paths or page aliases) the `texts` link to, sorted. A link
 * is read as the import reads it (normalizeAlias): case, a trailing slash, a query string and a
 * #fragment do not make another page ('/Blog/X/', '/blog/x?ref=1' and '/blog/x#part' are links
 * to /blog/x), and /about-us is no link to /about. A text that is itself an address (an image
 * field) counts as a link.
 */
export function linkedAliases(texts: readonly (string | null)[], gone: ReadonlySet<string>): string[] {
  const linked = new Set<string>();
  for (const t of texts) {
    if (t === null) continue;
    const targets = [...internalLinks(t).map((l) => l.target), ...(t.startsWith('/') ? [t] : [])];
    for (const target of targets) {
      const need = needOf(target);
      if (need.kind === 'path' && need.alias !== null && gone.has(need.alias)) linked.add(need.alias);
    }
  }
  return [...linked].sort();
}

/**
 * The texts' candidates for a link to one of `aliases`: the alias anywhere in the text, so a
 * trailing slash, a query or a #fragment after it still matches; `linkedAliases` reads the links.
 */
function likeAny(aliases: ReadonlySet<string>) {
  return (column: RawBuilder<string | null>) =>
    sql<boolean>`(${sql.join(
      [...aliases].map((a) => sql`lower(${column}) like ${`%${escapeLike(a)}%`}`),
      sql` or `,
    )})`;
}

/**
 * The items whose texts the import checks (an article's body and image address, a FAQ question
 * and answer, which go to faq.yaml) with a link to one of `aliases` (normalized article paths or
 * page aliases). Read in `db` as it is: called after a delete or a move, in its transaction, it
 * sees the item gone or moved. A `like` per alias finds the candidates (no index serves a
 * substring; the content tables hold hundreds or a few thousand rows and a delete is rare), then
 * their links are read as the import reads them, so /about-us is no link to /about.
 */
export async function itemsLinkingTo(db: Db, aliases: readonly string[]): Promise<LinkingItem[]> {
  const gone = new Set(aliases);
  if (!gone.size) return [];
  const linkedOf = (texts: (string | null)[]) => linkedAliases(texts, gone);
  const anyOf = likeAny(gone);
  const c = contentDb(db);
  // One after the other: the caller is a transaction (one connection).
  const articles = await c
    .selectFrom('articles')
    .select(['uuid', 'title', 'body_markdown', 'body_html', 'image_url'])
    .where(sql<boolean>`(${anyOf(sql`coalesce(body_markdown, body_html)`)} or ${anyOf(sql`image_url`)})`)
    .orderBy('id')
    .execute();
  const faqs = await c
    .selectFrom('faqs')
    .select(['uuid', 'question', 'answer_markdown', 'answer_html'])
    .where(sql<boolean>`(${anyOf(sql`question`)} or ${anyOf(sql`coalesce(answer_markdown, answer_html)`)})`)
    .orderBy('id')
    .execute();
  const items: LinkingItem[] = [
    ...articles.map((a) => ({
      kind: 'article' as const,
      title: a.title,
      address: `/admin/content/articles/${a.uuid}`,
      targets: linkedOf([a.body_markdown ?? a.body_html, a.image_url]),
    })),
    ...faqs.map((f) => ({
      kind: 'faq' as const,
      title: f.question,
      address: `/admin/content/faq/${f.uuid}`,
      targets: linkedOf([f.question, f.answer_markdown ?? f.answer_html]),
    })),
  ];
  return items.filter((i) => i.targets.length > 0);
}

/**
 * The console's guard of a delete or an address change (README.md 'Internal links'): called in
 * the change's transaction once the item is deleted or moved, with the addresses (`aliases`,
 * normalized) it no longer answers. If an article or FAQ text still links to one, refuses (409
 * `linked_content`, the items named with their console addresses; `pointer` at the field of a
 * move) and the transaction rolls back: nothing is changed, and export-content never writes a
 * folder whose import refuses a link.
 */
export async function refuseLinksTo(db: Db, aliases: readonly string[], pointer?: string): Promise<void> {
  if (!aliases.length) return;
  // An address another article or page still answers keeps its links working.
  const articlePaths = await contentDb(db)
    .selectFrom('articles')
    .select('path')
    .where('path', 'in', [...aliases])
    .execute();
  const pageAliases = await existingAliases(db, aliases);
  const gone = aliases.filter((a) => !pageAliases.has(a) && !articlePaths.some((r) => r.path === a));
  const items = await itemsLinkingTo(db, gone);
  if (!items.length) return;
  const E = en.console.content.errors;
  const targets = [...new Set(items.flatMap((i) => i.targets))].sort();
  const named = items
    .slice(0, LINKING_NAMED)
    .map((i) =>
      format(i.kind === 'article' ? E.linkingArticle : E.linkingFaq, { title: i.title, address: i.address }),
    )
    .join(', ');
  throw new HttpError(
    409,
    format(E.linkedFrom, {
      targets: targets.join(', '),
      items: items.length > LINKING_NAMED ? format(E.linkingOthers, { items: named }) : named,
    }),
    { code: 'linked_content', ...(pointer ? { pointer } : {}) },
  );
}
