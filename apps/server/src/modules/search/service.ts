import { SEARCH_SNIPPET_LENGTH, type SearchType } from '@portico/contracts/constants';
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from '@portico/contracts/locales';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/client.ts';
import {
  markerOf,
  translationsOf,
  type TranslatedFields,
  type TranslationMarker,
} from '../../lib/translations.ts';
import { searchDb, type AnyKysely } from './tables.ts';

/** Rows per statement when writing to the index (see upsert). */
const UPSERT_BATCH = 100;

/**
 * The site search (spec B 2.6, 7 '/phpsdk/search'): an index of everything a visitor can find,
 * kept current by the modules that own the things. A module writes its rows whenever a thing is
 * created, changed or removed, inside the same transaction as the change, so the index is never
 * rebuilt per query and never disagrees with the data:
 *
 *     await searchIndex(trx).upsert({ type: 'article', uuid, title, text: plainText(html), link, created });
 *     await searchIndex(trx).remove('article', uuid);
 *
 * A new searchable type is a new `type` value written the same way (and added to contracts'
 * SEARCH_TYPES, the list the search page offers).
 */
export interface SearchDocument {
  type: SearchType;
  uuid: string;
  title: string;
  /** Plain text (lib/plain-text.ts): searched, and the result's snippet is cut from it. */
  text: string;
  /** Words that find the thing but are not shown (an endpoint's path and operationId). */
  keywords?: string;
  /** Where the result leads; null lets the web app build the link from type and uuid. */
  link?: string | null;
  image?: string | null;
  deprecated?: boolean;
  created: Date | string;
}

/**
 * Each language's text search configuration (decision 065): the rows of a language are stemmed
 * with it (the generated vectors of migration 0315, a CASE over these languages) and its queries
 * too. A third language is an entry here and a migration that makes the vectors again.
 */
export const TEXT_SEARCH_CONFIGS: Record<Locale, string> = { en: 'english', de: 'german' };

/** The configuration of a row's language, as SQL (`langcode` of the row in scope). */
const rowConfig = sql.raw(
  `case langcode ${LOCALES.map((l) => `when '${l}' then '${TEXT_SEARCH_CONFIGS[l]}'::regconfig`).join(' ')} end`,
);

/**
 * How a translatable kind's translations become search rows (decision 065), told by the module
 * that indexes the kind, beside its own row (`upsert(doc, translated)`), and given to its
 * translation routes (lib/translations.ts `TranslationAdapter.search`). A translated row is the
 * item's default-language row with the translation's title and text, in the translation's
 * language: it exists while the default row does (a hidden item has neither), and leads where the
 * item leads.
 */
export interface TranslatedSearchKind {
  type: SearchType;
  /** `content_translations.entity_type`; the translations' `entity_id` is the row's uuid. */
  entityType: string;
  /** A translation's fields as the row's title and plain text (as the item's own row is made). */
  doc(fields: TranslatedFields): { title: string; text: string };
}

/** A kind's translated search, with the writes its translation routes call (lib/translations.ts). */
export interface TranslatedSearch extends TranslatedSearchKind {
  /** The item's row in `langcode` as its translation now is (`fields`), or none (undefined). */
  write(db: AnyKysely, uuid: string, langcode: Locale, fields: TranslatedFields | undefined): Promise<void>;
  /** Start-up: the rows of saved translations that have none (see indexMissingTranslations). */
  indexMissing(db: AnyKysely): Promise<number>;
}

export function translatedSearch(kind: TranslatedSearchKind): TranslatedSearch {
  const search: TranslatedSearch = {
    ...kind,
    write: (db, uuid, langcode, fields) => searchIndex(db).translation(search, uuid, langcode, fields),
    indexMissing: (db) => searchIndex(db).indexMissingTranslations(search),
  };
  return search;
}

/** The index's writes, on a database or inside a caller's transaction. */
export function searchIndex(database: AnyKysely) {
  const db = searchDb(database);
  const row = (d: SearchDocument, langcode: Locale = DEFAULT_LOCALE) => ({
    type: d.type,
    uuid: d.uuid,
    langcode,
    title: d.title,
    body: d.text,
    keywords: d.keywords ?? '',
    link: d.link ?? null,
    image: d.image ?? null,
    deprecated: d.deprecated ?? false,
    created: d.created,
  });
  const write = async (rows: readonly ReturnType<typeof row>[]) => {
    // Batches keep each statement's parameter count well under PostgreSQL's limit.
    for (let i = 0; i < rows.length; i += UPSERT_BATCH) {
      await db
        .insertInto('search_documents')
        .values(rows.slice(i, i + UPSERT_BATCH))
        .onConflict((oc) =>
          oc.columns(['type', 'uuid', 'langcode']).doUpdateSet((eb) => ({
            title: eb.ref('excluded.title'),
            body: eb.ref('excluded.body'),
            keywords: eb.ref('excluded.keywords'),
            link: eb.ref('excluded.link'),
            image: eb.ref('excluded.image'),
            deprecated: eb.ref('excluded.deprecated'),
            created: eb.ref('excluded.created'),
          })),
        )
        .execute();
    }
  };
  /**
   * One item's row in `langcode` as its translation now is: written from `fields` (the rest from
   * the item's default-language row: none while the item is hidden), removed without them. In
   * the transaction that writes or deletes the translation.
   */
  async function writeTranslation(
    translated: TranslatedSearchKind,
    uuid: string,
    langcode: Locale,
    fields: TranslatedFields | undefined,
  ): Promise<void> {
    if (langcode === DEFAULT_LOCALE) return;
    await db
      .deleteFrom('search_documents')
      .where('type', '=', translated.type)
      .where('uuid', '=', uuid)
      .where('langcode', '=', langcode)
      .execute();
    if (!fields) return;
    const { title, text } = translated.doc(fields);
    await db
      .insertInto('search_documents')
      .columns([
        'type',
        'uuid',
        'langcode',
        'title',
        'body',
        'keywords',
        'link',
        'image',
        'deprecated',
        'created',
      ])
      .expression(
        db
          .selectFrom('search_documents')
          .select((eb) => [
            'type',
            'uuid',
            eb.val(langcode).as('langcode'),
            eb.val(title).as('title'),
            eb.val(text).as('body'),
            'keywords',
            'link',
            'image',
            'deprecated',
            'created',
          ])
          .where('type', '=', translated.type)
          .where('uuid', '=', uuid)
          .where('langcode', '=', DEFAULT_LOCALE),
      )
      .execute();
  }
  return {
    /**
     * Writes the default language's rows of `docs`; with `translated`, also a row per saved
     * translation of each (decision 065), so that a row written again (an item edited, published
     * again) takes its translations with it.
     */
    async upsert(
      docs: SearchDocument | readonly SearchDocument[],
      translated?: TranslatedSearchKind,
    ): Promise<void> {
      const list = Array.isArray(docs) ? docs : [docs as SearchDocument];
      await write(list.map((d) => row(d)));
      if (!translated || list.length === 0) return;
      const byUuid = new Map(list.map((d) => [d.uuid, d]));
      const translations = await translationsOf(database as Db).ofItems(translated.entityType, [
        ...byUuid.keys(),
      ]);
      await write(
        translations.flatMap((t) => {
          const d = byUuid.get(t.id);
          return d && isLocale(t.langcode) ? [row({ ...d, ...translated.doc(t.fields) }, t.langcode)] : [];
        }),
      );
    },
    translation: writeTranslation,
    /**
     * Writes the rows of the saved translations of a kind that have none (the translations saved
     * before the index had languages, migration 0315): idempotent, and one query when nothing is
     * missing. Run at start-up by the kind's translation routes.
     */
    async indexMissingTranslations(translated: TranslatedSearchKind): Promise<number> {
      const { rows: missing } = await sql<{ uuid: string; langcode: string; fields: unknown }>`
        select d.uuid, t.langcode, t.fields
        from search_documents d
        join content_translations t on t.entity_type = ${translated.entityType} and t.entity_id = d.uuid::text
        where d.type = ${translated.type} and d.langcode = ${DEFAULT_LOCALE}
          and not exists (
            select 1 from search_documents x where x.type = d.type and x.uuid = d.uuid and x.langcode = t.langcode
          )`.execute(db);
      for (const m of missing) {
        if (!isLocale(m.langcode)) continue;
        const fields = (typeof m.fields === 'string' ? JSON.parse(m.fields) : m.fields) as TranslatedFields;
        await writeTranslation(translated, m.uuid, m.langcode, fields);
      }
      return missing.length;
    },
    async remove(type: SearchType, uuid: string | readonly string[]): Promise<void> {
      const uuids = typeof uuid === 'string' ? [uuid] : [...uuid];
      for (let i = 0; i < uuids.length; i += 1000) {
        await db
          .deleteFrom('search_documents')
          .where('type', '=', type)
          .where('uuid', 'in', uuids.slice(i, i + 1000))
          .execute();
      }
    },
    /** Removes the rows of `type` whose link starts with `prefix` (everything one source wrote). */
    async removeLinked(type: SearchType, prefix: string): Promise<void> {
      await db
        .deleteFrom('search_documents')
        .where('type', '=', type)
        .where(sql<boolean>`starts_with(link, ${prefix})`)
        .execute();
    },
    /** The fingerprint recorded for a bulk source (see sourceIndexed), if any. */
    async sourceFingerprints(prefix: string): Promise<Map<string, string>> {
      const rows = await db
        .selectFrom('search_sources')
        .select(['source', 'fingerprint'])
        .where('source', 'like', `${prefix.replace(/[%_\\]/g, '\\$&')}%`)
        .execute();
      return new Map(rows.map((r) => [r.source, r.fingerprint]));
    },
    /** Records that `source` (e.g. 'documentation:<uuid>') is indexed as of `fingerprint`. */
    async sourceIndexed(source: string, fingerprint: string): Promise<void> {
      await db
        .insertInto('search_sources')
        .values({ source, fingerprint })
        .onConflict((oc) => oc.column('source').doUpdateSet({ fingerprint }))
        .execute();
    },
    async forgetSource(source: string): Promise<void> {
      await db.deleteFrom('search_sources').where('source', '=', source).execute();
    },
    /** Removes every row of `type` whose uuid is not in `keep` (a module re-syncing its whole type). */
    async retainOnly(type: SearchType, keep: readonly string[]): Promise<void> {
      let q = db.deleteFrom('search_documents').where('type', '=', type);
      if (keep.length > 0) q = q.where('uuid', 'not in', [...keep]);
      await q.execute();
    },
  };
}

/** The words of a query that the index can match: letters and digits, at most 12 of them. */
export function queryTerms(q: string): string[] {
  return (
    q
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
    .slice(0, 12)
    .map((t) => t.slice(0, 64));
}

/**
 * Every term must match, each as a prefix ('pay' finds 'payments'), stemmed like the index. The
 * terms are letters and digits only, so they cannot break the tsquery syntax.
 */
function tsQuery(terms: readonly string[], config: string): RawBuilder<unknown> {
  return sql.join(
    terms.map((t) => sql`to_tsquery(${sql.lit(config)}, ${`${t}:*`})`),
    sql` && `,
  );
}

/**
 * A query in the reader's language (decision 065): which rows match, and each row's tsquery (for
 * its rank and snippet). In the default language: its rows, as ever. In another: the rows in that
 * language, stemmed by its configuration, and the default language's rows of the items that have
 * none in it (the fallback), never both versions of one item.
 */
interface LanguageQuery {
  matches(vector: RawBuilder<unknown>): RawBuilder<boolean>;
  /** The row's tsquery (a row in scope: `langcode`). */
  query: RawBuilder<unknown>;
}

function languageQuery(terms: readonly string[], langcode: Locale): LanguageQuery {
  const fallback = tsQuery(terms, TEXT_SEARCH_CONFIGS[DEFAULT_LOCALE]);
  if (langcode === DEFAULT_LOCALE) {
    return {
      matches: (vector) => sql<boolean>`langcode = ${DEFAULT_LOCALE} and ${vector} @@ (${fallback})`,
      query: fallback,
    };
  }
  const own = tsQuery(terms, TEXT_SEARCH_CONFIGS[langcode]);
  return {
    matches: (vector) => sql<boolean>`(
      (langcode = ${langcode} and ${vector} @@ (${own}))
      or (
        langcode = ${DEFAULT_LOCALE} and ${vector} @@ (${fallback})
        and not exists (
          select 1 from search_documents t
          where t.type = search_documents.type and t.uuid = search_documents.uuid and t.langcode = ${langcode}
        )
      )
    )`,
    query: sql`(case when langcode = ${langcode} then ${own} else ${fallback} end)`,
  };
}

export interface SearchHit {
  type: SearchType;
  uuid: string;
  title: string;
  description: string;
  link: string | null;
  image: string | null;
  deprecated: boolean;
  created: Date;
  /** The language asked for and the one shown: a fallback when the item has no translation. */
  translation: TranslationMarker;
}

/** The most results one search serves by default (SEARCH_RESULTS_MAX of the configuration). */
export const SEARCH_RESULTS_MAX = 1000;

export interface SearchPage {
  items: SearchHit[];
  /** How many documents match, at most SEARCH_RESULTS_MAX: the results served for one query. */
  count: number;
  /** False when more documents match than SEARCH_RESULTS_MAX: `count` is then a lower bound. */
  countExact: boolean;
}

/**
 * One page of the results for a query: never more than SEARCH_RESULTS_MAX results, so that no query
 * costs more than visiting that many matches (decision 029, bench/README.md 'Site search'):
 *
 * - The count visits at most SEARCH_RESULTS_MAX + 1 matches; past that the answer says "at least".
 * - At most SEARCH_RESULTS_MAX matches: all are ranked (ts_rank_cd over title A, keywords B, text C),
 *   then newest first.
 * - More: the documents whose title or keywords hold every word come first (found through their
 *   own small index and ranked on it, at most SEARCH_RESULTS_MAX of them), then the other matches
 *   newest first, read backwards through the index on `created` until the page is full. A word
 *   that common would rank the rest nearly alike anyway.
 *
 * An empty query finds nothing. The snippet (ts_headline, the costly part) is made for the page's
 * rows only.
 */
export async function searchDocuments(
  database: AnyKysely,
  options: {
    q: string;
    /** The reader's language (decision 065); the default language when left out. */
    langcode?: Locale;
    types?: readonly SearchType[];
    limit: number;
    offset: number;
    /** SEARCH_RESULTS_MAX of the configuration. */
    maxResults?: number;
  },
): Promise<SearchPage> {
  const max = options.maxResults ?? SEARCH_RESULTS_MAX;
  const terms = queryTerms(options.q);
  if (terms.length === 0) return { items: [], count: 0, countExact: true };
  const db = searchDb(database);
  const langcode = options.langcode ?? DEFAULT_LOCALE;
  const query = languageQuery(terms, langcode);
  const types = options.types && options.types.length > 0 ? [...options.types] : undefined;
  const found = await countUpTo(db, sql`document`, query, types, max + 1);
  const count = Math.min(found, max);
  const countExact = found <= max;
  const { offset } = options;
  // Never past the count: the results beyond SEARCH_RESULTS_MAX are not served.
  const limit = Math.min(options.limit, count - offset);
  if (limit <= 0) return { items: [], count, countExact };

  const keys = countExact
    ? await rankedPage(db, query, types, limit, offset)
    : await headingFirstPage(db, query, types, limit, offset, max);
  const items = await pageRows(db, query, keys, langcode);
  return { items, count, countExact };
}

interface PageKey {
  type: string;
  uuid: string;
  langcode: string;
}

function matching(
  db: ReturnType<typeof searchDb>,
  vector: RawBuilder<unknown>,
  query: LanguageQuery,
  types: string[] | undefined,
) {
  let q = db.selectFrom('search_documents').where(query.matches(vector));
  if (types) q = q.where('type', 'in', types);
  return q;
}

/** How many documents match, counting at most `max`: the rows past it are never visited. */
async function countUpTo(
  db: ReturnType<typeof searchDb>,
  vector: RawBuilder<unknown>,
  query: LanguageQuery,
  types: string[] | undefined,
  max: number,
): Promise<number> {
  const row = await db
    .selectFrom(
      matching(db, vector, query, types)
        .select(sql`1`.as('one'))
        .limit(max)
        .as('m'),
    )
    .select(sql<string>`count(*)`.as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Every match ranked (there are at most SEARCH_RESULTS_MAX), then newest first. */
async function rankedPage(
  db: ReturnType<typeof searchDb>,
  query: LanguageQuery,
  types: string[] | undefined,
  limit: number,
  offset: number,
): Promise<PageKey[]> {
  return matching(db, sql`document`, query, types)
    .select(['type', 'uuid', 'langcode'])
    .orderBy(sql`ts_rank_cd(document, ${query.query})`, 'desc')
    .orderBy('created', 'desc')
    .orderBy('uuid')
    .limit(limit)
    .offset(offset)
    .execute();
}

/**
 * More than SEARCH_RESULTS_MAX matches: the heading matches (every word in the title or keywords)
 * ranked first, then the rest newest first. Both lists are bounded: the first by
 * SEARCH_RESULTS_MAX, the second by the page, read through the index on `created`.
 */
async function headingFirstPage(
  db: ReturnType<typeof searchDb>,
  query: LanguageQuery,
  types: string[] | undefined,
  limit: number,
  offset: number,
  max: number,
): Promise<PageKey[]> {
  const headingCount = await countUpTo(db, sql`heading`, query, types, max);
  const keys: PageKey[] = [];
  if (offset < headingCount) {
    keys.push(
      ...(await db
        .with('h', () =>
          matching(db, sql`heading`, query, types)
            .select([
              'type',
              'uuid',
              'langcode',
              'created',
              sql<number>`ts_rank_cd(heading, ${query.query})`.as('rank'),
            ])
            .limit(max),
        )
        .selectFrom('h')
        .select(['type', 'uuid', 'langcode'])
        .orderBy('rank', 'desc')
        .orderBy('created', 'desc')
        .orderBy('uuid')
        .limit(limit)
        .offset(offset)
        .execute()),
    );
  }
  const rest = limit - keys.length;
  if (rest > 0) {
    keys.push(
      ...(await matching(db, sql`document`, query, types)
        .where(sql<boolean>`not (heading @@ (${query.query}))`)
        .select(['type', 'uuid', 'langcode'])
        .orderBy('created', 'desc')
        .orderBy('uuid')
        .limit(rest)
        .offset(Math.max(0, offset - headingCount))
        .execute()),
    );
  }
  return keys;
}

/** The page's rows in the order of `keys`, each with its snippet (made for these rows only). */
async function pageRows(
  db: ReturnType<typeof searchDb>,
  query: LanguageQuery,
  keys: PageKey[],
  langcode: Locale,
): Promise<SearchHit[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .selectFrom('search_documents')
    .where((eb) =>
      eb.or(
        keys.map((k) =>
          eb.and([eb('type', '=', k.type), eb('uuid', '=', k.uuid), eb('langcode', '=', k.langcode)]),
        ),
      ),
    )
    .select([
      'type',
      'uuid',
      'langcode',
      'title',
      'link',
      'image',
      'deprecated',
      'created',
      // The part of the text around the words found (tags were stripped when it was indexed).
      sql<string>`ts_headline(${rowConfig}, body, ${query.query}, 'StartSel="", StopSel="", MaxWords=70, MinWords=30, MaxFragments=0')`.as(
        'description',
      ),
    ])
    .execute();
  const byKey = new Map(rows.map((r) => [`${r.type}:${r.uuid}:${r.langcode}`, r]));
  return keys.flatMap((k) => {
    const r = byKey.get(`${k.type}:${k.uuid}:${k.langcode}`);
    return r
      ? [
          {
            type: r.type as SearchType,
            uuid: r.uuid,
            title: r.title,
            description: r.description.slice(0, SEARCH_SNIPPET_LENGTH),
            link: r.link,
            image: r.image,
            deprecated: r.deprecated,
            created: r.created,
            translation: markerOf(langcode, r.langcode === langcode),
          },
        ]
      : [];
  });
}
