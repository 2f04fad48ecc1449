/**
 * The forum's reads over a large community: 20,000 topics and 200,000 comments (defaults).
 *   node bench/forum.ts [-- --topics N --comments N --runs N]          (PGlite, temp DATA_DIR)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/forum.ts
 * Builds the portal on a fresh database with the demo content, adds the topics (spread over the
 * demo forums that take topics) and comments (one topic in 100 has 1,000 comments, the rest share
 * the remainder) in SQL, then times over real HTTP, anonymously: the forum list with its
 * statistics, a forum's first page of topics, the title search, the Popular list (sorted by
 * comment count) and the last page of comments of the busiest topic (3 warm-ups, then `runs`).
 */
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { freshDatabase } from './database.ts';
import { freePort, loadAverage, percentiles } from './support.ts';

const { values: args } = parseArgs({
  options: {
    topics: { type: 'string', default: '20000' },
    comments: { type: 'string', default: '200000' },
    runs: { type: 'string', default: '20' },
  },
});
const TOPICS = Number(args.topics);
const COMMENTS = Number(args.comments);
const RUNS = Number(args.runs);

const database = await freshDatabase();
const port = await freePort();
const config = loadConfig({
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: database.dataDir,
  LOG_LEVEL: 'warn',
  ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
});
const app = await buildApp({ config, logger: false });
await app.listen({ port, host: '127.0.0.1' });
const base = `http://127.0.0.1:${port}`;
try {
  const started = performance.now();
  // Topics round-robin over the forums that take topics, authored by the demo developer.
  await sql`
    insert into forum_topics (forum_id, author_id, title, body_html, created, changed)
    select f.id, (select id from users order by id limit 1),
      'Bench topic ' || g || ' about ' || (array['payments','consents','tokens','webhooks','fx rates'])[1 + g % 5],
      '<p>Body of bench topic ' || g || '</p>',
      now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval
    from generate_series(1, ${TOPICS}) g
    join lateral (select id from forums where not container order by id offset (g % (select count(*) from forums where not container)) limit 1) f on true`.execute(
    app.db,
  );
  const busy = Math.max(1, Math.floor(TOPICS / 100));
  await sql`
    with t as (select id, row_number() over (order by id) - 1 as n, count(*) over () as total from forum_topics)
    insert into forum_comments (topic_id, author_id, subject, body_html, created, changed)
    select t.id, (select id from users order by id limit 1), 'Comment ' || g, '<p>Comment ' || g || ' on the topic</p>',
      now() - ((${COMMENTS} - g) || ' seconds')::interval, now() - ((${COMMENTS} - g) || ' seconds')::interval
    from generate_series(1, ${COMMENTS}) g
    join t on t.n = case when g <= ${busy} * 1000 then (g - 1) / 1000 else g % t.total end`.execute(app.db);
  await sql`analyze`.execute(app.db);
  console.log(
    `${database.label}: ${TOPICS} topics and ${COMMENTS} comments written in ${Math.round(performance.now() - started)} ms`,
  );

  const forums = (await (await fetch(`${base}/jsonapi/taxonomy_term/forums`)).json()) as {
    data: { id: string; attributes: { name: string; forum_container: boolean } }[];
  };
  const payments = forums.data.find((f) => f.attributes.name === 'Payments API')!;
  const busiest = (await (
    await fetch(`${base}/jsonapi/node/forum?sort=-comment_forum.comment_count&page[limit]=1`)
  ).json()) as {
    data: { id: string }[];
  };
  const last = Math.floor(999 / 10) * 10;
  const cases: [string, string][] = [
    ['forum list with statistics', '/jsonapi/taxonomy_term/forums'],
    ['a forum, first page of topics', `/phpsdk/forum-topics/${payments.id}`],
    [
      'title search "webhooks"',
      '/jsonapi/node/forum?filter[title][value]=webhooks&filter[title][operator]=CONTAINS&include=uid',
    ],
    [
      'Popular Topics (sort by comments)',
      '/jsonapi/node/forum?sort=-comment_forum.comment_count,-created&include=uid',
    ],
    [
      'Unanswered Topics',
      '/jsonapi/node/forum?filter[comment_forum.comment_count]=0&sort=-created&include=uid',
    ],
    [
      'last page of 1,000 comments',
      `/jsonapi/comment/comment_forum?filter[entity_id.id]=${busiest.data[0]!.id}&sort=created&include=uid&page[offset]=${last}`,
    ],
  ];
  console.log(`load average before: ${loadAverage().join(' ')}`);
  console.log('| request | median ms | p95 ms |');
  console.log('| --- | --- | --- |');
  for (const [name, path] of cases) {
    const times: number[] = [];
    for (let i = 0; i < 3 + RUNS; i++) {
      const t0 = performance.now();
      const res = await fetch(base + path);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      if (i >= 3) times.push(performance.now() - t0);
    }
    const p = percentiles(times);
    console.log(`| ${name} | ${p.median.toFixed(1)} | ${p.p95.toFixed(1)} |`);
  }
} finally {
  await app.close();
  await database.remove();
}
