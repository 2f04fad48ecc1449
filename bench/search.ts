/**
 * Site search over 100,000 generated documents (articles and API endpoints).
 *   npm run bench:search [-- --docs N --runs N]                        (PGlite, temporary DATA_DIR)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:search
 * Starts the portal on a fresh database without the demo content, writes N documents (default
 * 100,000: half articles, half endpoints) through the index's own service (modules/search), then
 * measures GET /phpsdk/search over real HTTP for single terms (rare, common, very common), two
 * terms, prefixes and a type filter: median and p95 of --runs runs after 3 warm-ups. Every answer's
 * meta.count is checked against the count the generator knows, computed here without the database,
 * under the count rule of decision 029: at most SEARCH_RESULTS_MAX (1,000) results, meta.countExact
 * false past it. One document in ten (an article) also has a German translation (decision 065: a content_translations
 * row and its search row, written through the index's own service), one in twenty of those with the
 * inflected German word 'Zahlungen': the German queries (`langcode=de`) search the German rows with
 * the German configuration and the English rows of the untranslated items.
 * --keep leaves the database behind (for EXPLAIN) and prints where it is.
 */
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import {
  SEARCH_RESULTS_MAX,
  searchIndex,
  type SearchDocument,
  type TranslatedSearchKind,
} from '../apps/server/src/modules/search/service.ts';
import { freshDatabase } from './database.ts';
import { freePort, loadAverage, percentiles } from './support.ts';

const { values: args } = parseArgs({
  options: {
    docs: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '30' },
    keep: { type: 'boolean', default: false },
  },
});
const DOCS = Number(args.docs);
const RUNS = Number(args.runs);
if (!Number.isSafeInteger(DOCS) || DOCS < 1000) throw new Error('--docs must be an integer of at least 1000');

/**
 * A vocabulary of 2,000 made-up words of consonant-vowel syllables without 'q' or 'x', so no word
 * is a prefix or a stem of the planted words below ('quasar', 'xenon', 'ledger').
 */
const CONSONANTS = 'bdfgklmnprstvz';
const VOWELS = 'aeiou';
const vocabulary: string[] = [];
for (let i = 0; vocabulary.length < 2000; i++) {
  let n = i;
  let word = '';
  for (let s = 0; s < 3; s++) {
    word += CONSONANTS[n % CONSONANTS.length]! + VOWELS[Math.floor(n / CONSONANTS.length) % VOWELS.length]!;
    n = Math.floor(n / (CONSONANTS.length * VOWELS.length));
  }
  vocabulary.push(word + 'n');
}

/** A small deterministic generator: document i's words depend on i only. */
function words(i: number, count: number): string[] {
  let x = (i + 1) * 2654435761;
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(vocabulary[x % vocabulary.length]!);
  }
  return out;
}

// Planted words, with counts the bench knows: rare (1 in 1,000), common (1 in 7), very common (1 in 3).
const has = {
  quasar: (i: number) => i % 1000 === 0,
  xenon: (i: number) => i % 7 === 0,
  ledger: (i: number) => i % 3 === 0,
};
const isEndpoint = (i: number) => i % 2 === 1;
const uuidOf = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;

function documentOf(i: number): SearchDocument {
  const planted = Object.entries(has)
    .filter(([, f]) => f(i))
    .map(([w]) => w);
  const text = [...words(i, 40), ...planted].join(' ');
  return {
    type: isEndpoint(i) ? 'api_endpoint' : 'article',
    uuid: uuidOf(i),
    title: words(i + 7, 5).join(' '),
    text,
    keywords: isEndpoint(i) ? `GET /resources/${i}` : '',
    link: isEndpoint(i) ? `/documentation/bench#operation/op-${i}` : `/blog/article-${i}`,
    created: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
  };
}

/** One article in ten has a German translation; one in twenty of those says 'Zahlungen'. */
const hasGerman = (i: number) => i % 10 === 0;
const saysZahlung = (i: number) => hasGerman(i) && i % 200 === 0;
const BENCH_GERMAN: TranslatedSearchKind = {
  type: 'article',
  entityType: 'bench_article',
  doc: (t) => ({ title: t.title ?? '', text: t.body ?? '' }),
};
function germanOf(i: number): { title: string; body: string } {
  const d = documentOf(i);
  return {
    title: `${d.title} Artikel`,
    body: `${d.text} ${saysZahlung(i) ? 'Zahlungen werden sofort gebucht' : 'Buchungen folgen'}`,
  };
}

function expected(test: (i: number) => boolean): number {
  let n = 0;
  for (let i = 0; i < DOCS; i++) if (test(i)) n++;
  return n;
}

const { dataDir, databaseUrl, label, remove } = await freshDatabase();
const port = await freePort();
const config = loadConfig({
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  IMPORT_CONTENT: 'false',
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
});
const app = await buildApp({ config });
try {
  await app.listen({ port, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${port}`;

  const t0 = performance.now();
  const CHUNK = 2000;
  for (let start = 0; start < DOCS; start += CHUNK) {
    const batch: SearchDocument[] = [];
    for (let i = start; i < Math.min(DOCS, start + CHUNK); i++) batch.push(documentOf(i));
    const german = batch.filter((_, k) => hasGerman(start + k));
    if (german.length > 0)
      await sql`insert into content_translations (entity_type, entity_id, langcode, fields)
        select * from unnest(${german.map(() => BENCH_GERMAN.entityType)}::text[], ${german.map((d) => d.uuid)}::text[],
          ${german.map(() => 'de')}::text[], ${german.map((d) => JSON.stringify(germanOf(Number.parseInt(d.uuid.slice(-12), 16))))}::jsonb[])`.execute(
        app.db,
      );
    await searchIndex(app.db).upsert(batch, BENCH_GERMAN);
  }
  const indexMs = performance.now() - t0;
  await sql`analyze search_documents`.execute(app.db);
  const size = await sql<{ table: string; index: string }>`
    select pg_size_pretty(pg_table_size('search_documents')) as table,
           pg_size_pretty(pg_indexes_size('search_documents')) as index`.execute(app.db);

  // A word of the vocabulary that no other word starts with (a prefix query would find those too).
  const titleWord = vocabulary.find((w) => vocabulary.every((v) => v === w || !v.startsWith(w)))!;
  const cases: { name: string; query: string; count: number; titleFirst?: string }[] = [
    { name: 'rare term (0.1 %)', query: 'q=quasar', count: expected(has.quasar) },
    { name: 'common term (14 %)', query: 'q=xenon', count: expected(has.xenon) },
    { name: 'very common term (33 %)', query: 'q=ledger', count: expected(has.ledger) },
    { name: 'two terms', query: 'q=xenon+ledger', count: expected((i) => has.xenon(i) && has.ledger(i)) },
    { name: 'prefix (quas)', query: 'q=quas', count: expected(has.quasar) },
    {
      name: 'prefix + type filter',
      query: 'q=xen&type=api_endpoint',
      count: expected((i) => has.xenon(i) && isEndpoint(i)),
    },
    { name: 'page 50 of a common term', query: 'q=xenon&pageOffset=490', count: expected(has.xenon) },
    // German readers (decision 065): the German rows stemmed by the German configuration
    // ('Zahlungen' finds 'zahlung'), and the English rows of the items without a German one.
    { name: 'German word under de', query: 'q=Zahlungen&langcode=de', count: expected(saysZahlung) },
    { name: 'rare term under de', query: 'q=quasar&langcode=de', count: expected(has.quasar) },
    { name: 'common term under de', query: 'q=xenon&langcode=de', count: expected(has.xenon) },
    {
      // A word of the generated titles and texts: the documents with it in the title come first.
      name: 'word of titles and texts',
      query: `q=${titleWord}`,
      count: expected((i) => [...words(i + 7, 5), ...words(i, 40)].includes(titleWord)),
      titleFirst: titleWord,
    },
  ];

  const rows: string[] = [];
  for (const c of cases) {
    const url = `${base}/phpsdk/search?${c.query}&pageSize=10&pagination=true`;
    const times: number[] = [];
    for (let run = 0; run < RUNS + 3; run++) {
      const started = performance.now();
      const res = await fetch(url);
      const body = (await res.json()) as {
        data: { title: string }[];
        meta: { count: number; countExact: boolean };
      };
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`${c.name}: HTTP ${res.status}`);
      // The count rule: exact up to SEARCH_RESULTS_MAX, past it that many and countExact false.
      const count = Math.min(c.count, SEARCH_RESULTS_MAX);
      if (body.meta.count !== count || body.meta.countExact !== c.count <= SEARCH_RESULTS_MAX)
        throw new Error(`${c.name}: meta ${JSON.stringify(body.meta)}, expected ${c.count} matches`);
      if (body.data.length !== Math.min(10, c.count))
        throw new Error(`${c.name}: ${body.data.length} results on the page`);
      if (c.titleFirst && !body.data.every((r) => r.title.split(' ').includes(c.titleFirst!)))
        throw new Error(`${c.name}: a result without '${c.titleFirst}' in its title on the first page`);
      if (run >= 3) times.push(ms);
    }
    const p = percentiles(times);
    rows.push(
      `| ${c.name.padEnd(26)} | ${String(c.count).padStart(6)} | ${p.median.toFixed(1).padStart(7)} ms | ${p.p95.toFixed(1).padStart(7)} ms |`,
    );
  }

  console.log(
    `\n${label}, ${DOCS.toLocaleString('en')} documents, ${RUNS} runs, load ${loadAverage().join(' ')}`,
  );
  console.log(
    `indexed in ${(indexMs / 1000).toFixed(1)} s (${Math.round(DOCS / (indexMs / 1000))} documents/s); table ${size.rows[0]!.table}, indexes ${size.rows[0]!.index}\n`,
  );
  console.log('| query                      |  found | median     | p95        |');
  console.log('| -------------------------- | -----: | ---------: | ---------: |');
  for (const r of rows) console.log(r);
} finally {
  await app.close();
  if (args.keep) console.log(`kept: ${databaseUrl ?? dataDir}`);
  else await remove();
}
