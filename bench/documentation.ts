/**
 * The documentation page of a large public OpenAPI document, next to Redoc, Swagger UI and Scalar.
 *   npm run bench:docs                 # = npm run build && node bench/documentation.ts
 *   node bench/documentation.ts --runs 5 --tools portico,portico-link,redoc,swagger,scalar [--profile] [--click page]
 *
 * 1. Installs bench/package.json (GitHub's REST API description from @octokit/openapi, Redoc's
 *    standalone bundle, swagger-ui-dist, Scalar's standalone bundle from @scalar/api-reference) into
 *    bench/node_modules on the first run.
 * 2. Imports generated/api.github.com.json into a fresh DATA_DIR with the portal's CLI
 *    (`npm run portal -- import-api`), then starts the portal on it (as startup.ts does).
 * 3. Serves a Redoc page, a Swagger UI page and a Scalar page for the very same file from a small
 *    static server (brotli, quality 4 like the portal's @fastify/compress). Every script is served
 *    from bench/node_modules: nothing is fetched from the internet (Chromium resolves no other host;
 *    Scalar's default options ask fonts.scalar.com for its fonts, which fails at once, as offline).
 * 4. In one headless Chromium, round after round (portico, redoc, swagger, scalar, portico, ...), each run
 *    in a fresh browser context (no cache), times from navigation start until the reference is
 *    usable: the first operation is shown, then clicking it shows its details (responses). The
 *    times are read from the page's own clock (performance.now(), 0 = navigation start).
 * 5. Prints the medians and the compressed bytes of every script each page fetched, Portico against
 *    the fastest of the other tools (issue 29's aim: usable 5x sooner, the deep link under 0.3 s),
 *    and writes every run to bench/results/documentation-<time>.json.
 * --baseline <checkout> runs another checkout's portal (its server and built web app, its own import
 * of the document) beside this one, and loads its page next to each Portico run, in the same
 * rounds, the two taking turns at going first: before and after under the same load (a shared
 * machine's load moves by a factor of several between two runs of the script).
 * --profile adds one more run per tool under V8's sampling profiler (bench/results/*.cpuprofile,
 * opens in Chrome DevTools) and prints where the main thread spent its time, by source file
 * (through the source maps).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { SourceMap, type SourceMapping } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import type { Browser, BrowserContextOptions, Page } from '@playwright/test';
import { operationAddress } from '@portico/contracts/documentation-data';
import {
  freePort,
  launchChromium,
  loadAverage,
  portalEnv,
  root,
  startPortal,
  trackScripts,
  type ScriptFetch,
} from './support.ts';

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    tools: { type: 'string', default: 'portico,portico-link,redoc,swagger,scalar' },
    profile: { type: 'boolean', default: false },
    baseline: { type: 'string' },
    click: { type: 'string', default: 'playwright' },
  },
});
/**
 * How the first operation is clicked: by Playwright (`locator.click()`: it waits, in round trips to
 * the page's main thread, until the row is visible, stable and hit, so a busy page delays the click
 * itself), or in the page (`page`: the row is clicked in the first animation frame where it is
 * shown, and its details watched frame by frame from there, all in the page's clock: a visitor who
 * clicks the moment the row appears). Pages whose tool has no `row` (the deep link, Redoc's two
 * clicks) keep Playwright's.
 */
const CLICK = options.click;
if (CLICK !== 'playwright' && CLICK !== 'page')
  throw new Error(`--click must be playwright or page, not ${options.click}`);
const RUNS = Number(options.runs);
if (!Number.isInteger(RUNS) || RUNS < 1)
  throw new Error(`--runs must be a positive integer, not ${options.runs}`);
/** One step (page shown, operation opened) may take this long before the run counts as failed. */
const STEP_LIMIT_MS = 300_000;
const VIEWPORT = { width: 1280, height: 900 };
const ALIAS = 'github-rest';

const benchDir = import.meta.dirname;
const resultsDir = path.join(benchDir, 'results');
const webDist = path.join(root, 'apps/web/dist');

// 1. The bench-only packages (never in the root lock: every CI install would pay for them).
const packagesDir = path.join(benchDir, 'node_modules');
if (!fs.existsSync(packagesDir)) {
  console.log('Installing bench/package.json into bench/node_modules (once) ...');
  const npm = process.env.npm_execpath;
  const install = spawnSync(
    npm ? process.execPath : 'npm',
    [...(npm ? [npm] : []), 'install', '--prefix', 'bench', '--no-audit', '--no-fund'],
    { cwd: root, stdio: 'inherit' },
  );
  if (install.status !== 0) throw new Error('npm install --prefix bench failed');
}
if (!fs.existsSync(path.join(webDist, 'index.html')))
  throw new Error('apps/web/dist is missing: npm run build');
const pkg = (name: string) => path.join(packagesDir, name);
const specFile = pkg('@octokit/openapi/generated/api.github.com.json');
const version = (name: string) =>
  (JSON.parse(fs.readFileSync(pkg(`${name}/package.json`), 'utf8')) as { version: string }).version;

const specText = fs.readFileSync(specFile, 'utf8');
const spec = JSON.parse(specText) as { openapi: string; paths: Record<string, Record<string, unknown>> };
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const operationCount = Object.values(spec.paths).reduce(
  (n, item) => n + METHODS.filter((m) => item[m] !== undefined).length,
  0,
);
console.log(
  `document: @octokit/openapi ${version('@octokit/openapi')} generated/api.github.com.json, OpenAPI ${spec.openapi}, ` +
    `${operationCount} operations, ${mib(Buffer.byteLength(specText))}`,
);

// 2. Import into a fresh DATA_DIR, then start the portal on it.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-docs-'));
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const importStarted = performance.now();
const imported = spawnSync(
  process.execPath,
  ['apps/server/src/cli.ts', 'import-api', specFile, '--product', 'github-rest-api', '--alias', ALIAS],
  { cwd: root, env: portalEnv(dataDir, { PUBLIC_URL: origin }), encoding: 'utf8' },
);
const importMs = performance.now() - importStarted;
if (imported.status !== 0) throw new Error(`import-api failed:\n${imported.stdout}${imported.stderr}`);
console.log(`import-api (fresh DATA_DIR: create, migrate, import) in ${seconds(importMs)}`);
const portal = await startPortal({ port, dataDir, host: '127.0.0.1', env: { PUBLIC_URL: origin } });
console.log(`portal ready on ${origin} in ${seconds(portal.ms)}`);

/** Another checkout's portal (--baseline): its own CLI imports the document into its own folder. */
async function startBaseline(checkout: string) {
  if (!fs.existsSync(path.join(checkout, 'apps/web/dist/index.html')))
    throw new Error(`${checkout}/apps/web/dist is missing: build it there (npm run build)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-docs-base-'));
  const basePort = await freePort();
  const baseOrigin = `http://127.0.0.1:${basePort}`;
  const env = portalEnv(dir, { PUBLIC_URL: baseOrigin });
  const result = spawnSync(
    process.execPath,
    ['apps/server/src/cli.ts', 'import-api', specFile, '--product', 'github-rest-api', '--alias', ALIAS],
    { cwd: checkout, env, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`baseline import-api failed:\n${result.stdout}${result.stderr}`);
  const running = await startPortal({
    port: basePort,
    dataDir: dir,
    host: '127.0.0.1',
    env: { PUBLIC_URL: baseOrigin },
    checkout,
  });
  console.log(`baseline ${checkout} ready on ${baseOrigin} in ${seconds(running.ms)}`);
  return { checkout, origin: baseOrigin, dataDir: dir, portal: running };
}
const baseline = options.baseline ? await startBaseline(path.resolve(options.baseline)) : null;

// The operation of the deep-link run ('portico-link'): nine tenths down the reference, far below
// the first screen (Swagger UI's default page has no deep links; Redoc's need its whole render).
const indexKeys = [
  ...(await (await fetch(`${origin}/api/apidocs/${ALIAS}/index`)).text()).matchAll(/"key":"([^"]+)"/g),
].map((m) => m[1]!);
const deepKey = indexKeys[Math.floor(indexKeys.length * 0.9)];
if (!deepKey) throw new Error('the operation index lists no operation keys');

// 3. Redoc and Swagger UI pages for the same file, from a static server on another port.
interface StaticFile {
  type: string;
  body: Buffer;
  br: Buffer | null;
  /** Where it lies on disk (for its source map). */
  file: string | null;
}
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };
function staticFile(type: string, body: Buffer, file: string | null = null): StaticFile {
  return { type, body, br: body.length >= 1024 ? zlib.brotliCompressSync(body, BROTLI) : null, file };
}
const fromDisk = (type: string, file: string) => staticFile(type, fs.readFileSync(file), file);
const html = (text: string) => staticFile('text/html; charset=utf-8', Buffer.from(text));
const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
const swaggerDir = pkg('swagger-ui-dist');
const files = new Map<string, StaticFile>([
  ['/spec.json', staticFile('application/json', Buffer.from(specText), specFile)],
  // Redoc's documented HTML deployment, default options.
  [
    '/redoc/',
    html(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Redoc</title>' +
        '<meta name="viewport" content="width=device-width, initial-scale=1"></head>' +
        '<body><redoc spec-url="/spec.json"></redoc><script src="/redoc/redoc.standalone.js"></script></body></html>',
    ),
  ],
  ['/redoc/redoc.standalone.js', fromDisk(JS, pkg('redoc/bundles/redoc.standalone.js'))],
  // swagger-ui-dist's own index.html and swagger-initializer.js, with our document's URL.
  [
    '/swagger/',
    html(
      fs
        .readFileSync(path.join(swaggerDir, 'index.html'), 'utf8')
        .replace(/(src|href)="\.?\/?([\w.-]+)"/g, '$1="/swagger/$2"'),
    ),
  ],
  [
    '/swagger/swagger-initializer.js',
    staticFile(
      JS,
      Buffer.from(
        fs
          .readFileSync(path.join(swaggerDir, 'swagger-initializer.js'), 'utf8')
          .replace(/url: "[^"]*"/, 'url: "/spec.json"'),
      ),
    ),
  ],
  ...['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js'].map(
    (name) => [`/swagger/${name}`, fromDisk(JS, path.join(swaggerDir, name))] as const,
  ),
  ...['swagger-ui.css', 'index.css'].map(
    (name) => [`/swagger/${name}`, fromDisk(CSS, path.join(swaggerDir, name))] as const,
  ),
  // Scalar's documented HTML page (its README, "CDN"), its standalone bundle served from here,
  // default options but the document's URL (same origin: no proxyUrl).
  [
    '/scalar/',
    html(
      '<!doctype html><html><head><title>Scalar API Reference</title><meta charset="utf-8">' +
        '<meta name="viewport" content="width=device-width, initial-scale=1"></head>' +
        '<body><div id="app"></div><script src="/scalar/standalone.js"></script>' +
        "<script>Scalar.createApiReference('#app', { url: '/spec.json' })</script></body></html>",
    ),
  ],
  ['/scalar/standalone.js', fromDisk(JS, pkg('@scalar/api-reference/dist/browser/standalone.js'))],
]);
const staticServer = http.createServer((req, res) => {
  const file = files.get(new URL(req.url ?? '/', 'http://localhost').pathname);
  if (!file) {
    res.writeHead(404).end();
    return;
  }
  const br = file.br !== null && /\bbr\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const body = br && file.br ? file.br : file.body;
  res.writeHead(200, {
    'content-type': file.type,
    'content-length': body.length,
    'cache-control': 'no-cache',
    vary: 'accept-encoding',
    ...(br ? { 'content-encoding': 'br' } : {}),
  });
  res.end(body);
});
const staticPort = await freePort();
await new Promise<void>((resolve) => staticServer.listen(staticPort, '127.0.0.1', resolve));
const staticOrigin = `http://127.0.0.1:${staticPort}`;

// 4. The three pages and what "usable" means on each.
interface Tool {
  name: string;
  label: string;
  url: string;
  /** The request that brings the operations (the index, or the whole document). */
  dataPath: string;
  context?: BrowserContextOptions;
  /** A page function (source): true once the reference lists its operations. */
  shown: string;
  /** Opens the first operation the way a user would; resolves to the page function for its details. */
  open: (page: Page) => Promise<string>;
  /** For --click page: the element a visitor clicks (a selector list), and its details (a page function). */
  row?: { selector: string; details: string };
  /** The source map of one of the page's scripts, for --profile. */
  sourceMap: (pathname: string) => string | null;
}

/** A visitor who answered the cookie banner before (it would cover the list); caches stay empty. */
function porticoContext(pageOrigin: string): BrowserContextOptions {
  return {
    storageState: {
      cookies: [],
      origins: [
        {
          origin: pageOrigin,
          localStorage: [
            {
              name: 'portico',
              value: JSON.stringify({
                state: {
                  cookies: { cookiesConsentAction: 'dismiss', cookiesEnabled: { analytics: false } },
                },
                version: 0,
              }),
            },
          ],
        },
      ],
    },
  };
}

/** An operation row of Portico's reference: the server's first screen's, or the app's. */
const PORTICO_ROWS = [
  '#first-screen .fs-operation',
  '[data-testid="api-reference"] [data-testid="operation"] button[aria-expanded]',
];
/** An operation's details with a response: the server's rendering of them, or the app's. */
const PORTICO_DETAILS = [
  '#first-screen details[open] [data-response]',
  '#first-screen article.fs-open [data-response]',
  '[data-testid="operation"] [data-testid^="operation-details-"] [data-testid^="response-"]',
];
/** Page functions: a row shown, and its details shown (whichever of the two renderings is there). */
const PORTICO_ROW_SHOWN = anyShown(PORTICO_ROWS);
const PORTICO_DETAILS_SHOWN = anyShown(PORTICO_DETAILS);

/**
 * Portico's page and its deep link, served from `pageOrigin` with the web app built in `dist`:
 * this checkout's, or the baseline's (names with `suffix`).
 */
function porticoTools(pageOrigin: string, dist: string, suffix = '', labelSuffix = ''): Tool[] {
  const sourceMap = (pathname: string) => path.join(dist, `${pathname}.map`);
  return [
    {
      name: `portico${suffix}`,
      label: `Portico${labelSuffix}`,
      url: `${pageOrigin}/documentation/${ALIAS}`,
      dataPath: `/api/apidocs/${ALIAS}/index`,
      context: porticoContext(pageOrigin),
      // The server's first screen (decision 043) or, once it has taken over, the app's reference.
      shown: PORTICO_ROW_SHOWN,
      row: { selector: PORTICO_ROWS.join(', '), details: PORTICO_DETAILS_SHOWN },
      open: async (page) => {
        // Its first operation, as a visitor clicks it: on the first screen (its details came with
        // it) or a row of the app, whichever is there.
        await page.locator(PORTICO_ROWS.join(', ')).first().click();
        return PORTICO_DETAILS_SHOWN;
      },
      sourceMap,
    },
    {
      // The same page opened by a deep link to one operation: usable once that operation's details
      // (with a response) are shown within the first screen, without a click.
      name: `portico-link${suffix}`,
      label: `Portico${labelSuffix}, deep link`,
      // The address the page gives an operation (its link, the address bar once opened): the
      // server shows the operation on the first screen, the app opens and scrolls to it.
      url: `${pageOrigin}${operationAddress(`/documentation/${ALIAS}`, '', deepKey!)}`,
      dataPath: `/api/apidocs/${ALIAS}/index`,
      context: porticoContext(pageOrigin),
      shown: `() => {
        const ops = [
          document.querySelector(${JSON.stringify(`#first-screen article.fs-open[data-operation-key="${deepKey}"]`)}),
          document.querySelector(${JSON.stringify(`[data-operation="${deepKey}"]`)}),
        ];
        return ops.some((op) => {
          if (!op) return false;
          const top = op.getBoundingClientRect().top;
          return top > -5 && top < ${VIEWPORT.height} &&
            window.__bench.shown(op.querySelector('[data-response], [data-testid^="response-"]'));
        });
      }`,
      open: () => Promise.resolve('() => true'),
      sourceMap,
    },
  ];
}

/** Swagger UI's first operation, and its responses once it is open. */
const SWAGGER_ROW = '.opblock .opblock-summary-control';
const SWAGGER_DETAILS_SHOWN = shownCheck('.opblock.is-open .opblock-body .responses-wrapper .response');

/**
 * Scalar's first operation in its side menu (a link to `#tag/<tag>/<METHOD>/<path>`), and that
 * operation's section scrolled to the top with its responses shown.
 */
const SCALAR_ROW = 'li li a[href^="#tag/"]';
const SCALAR_DETAILS_SHOWN = `() => {
  const link = document.querySelector(${JSON.stringify(SCALAR_ROW)});
  const id = link && link.getAttribute('href').slice(1);
  const section = id && document.querySelector('section[id$=' + JSON.stringify(id) + ']');
  if (!section) return false;
  const top = section.getBoundingClientRect().top;
  return top > -5 && top < 100 && window.__bench.shown(section.querySelector('[class*="responses-title"]'));
}`;

const TOOLS: Tool[] = [
  ...porticoTools(origin, webDist),
  {
    name: 'redoc',
    label: `Redoc ${version('redoc')}`,
    url: `${staticOrigin}/redoc/`,
    dataPath: '/spec.json',
    shown: shownCheck('.menu-content li[data-item-id^="tag/"]', '[data-section-id*="/operation/"]'),
    // The side menu: open the first tag, click its first operation, wait until the page has
    // scrolled that operation (with its responses) to the top.
    open: async (page) => {
      const tag = page.locator('.menu-content li[data-item-id^="tag/"]').first();
      await tag.locator(':scope > label').click();
      const item = tag.locator('li[data-item-id*="/operation/"]').first();
      const id = await item.getAttribute('data-item-id');
      await item.locator(':scope > label').click();
      return `() => {
        const section = document.getElementById(${JSON.stringify(id)});
        if (!section) return false;
        const top = section.getBoundingClientRect().top;
        return top > -5 && top < 100 && window.__bench.shown(section.querySelector('h3'));
      }`;
    },
    sourceMap: (pathname) => staticSourceMap(pathname),
  },
  {
    name: 'swagger',
    label: `Swagger UI ${version('swagger-ui-dist')}`,
    url: `${staticOrigin}/swagger/`,
    dataPath: '/spec.json',
    shown: shownCheck(SWAGGER_ROW),
    row: { selector: SWAGGER_ROW, details: SWAGGER_DETAILS_SHOWN },
    open: async (page) => {
      await page.locator(SWAGGER_ROW).first().click();
      return SWAGGER_DETAILS_SHOWN;
    },
    sourceMap: (pathname) => staticSourceMap(pathname),
  },
  {
    name: 'scalar',
    label: `Scalar ${version('@scalar/api-reference')}`,
    url: `${staticOrigin}/scalar/`,
    dataPath: '/spec.json',
    shown: shownCheck(SCALAR_ROW),
    row: { selector: SCALAR_ROW, details: SCALAR_DETAILS_SHOWN },
    open: async (page) => {
      await page.locator(SCALAR_ROW).first().click();
      return SCALAR_DETAILS_SHOWN;
    },
    sourceMap: (pathname) => staticSourceMap(pathname),
  },
];

function staticSourceMap(pathname: string): string | null {
  const file = files.get(pathname)?.file;
  return file ? `${file}.map` : null;
}

/** A page expression: the first element `selector` matches is rendered with a non-empty box. */
function isShown(selector: string): string {
  return `window.__bench.shown(document.querySelector(${JSON.stringify(selector)}))`;
}

/** A page function: any one of `selectors` matches an element that is shown. */
function anyShown(selectors: string[]): string {
  return `() => ${selectors.map(isShown).join(' || ')}`;
}

/** A page function: true once an element of every selector is shown. */
function shownCheck(...selectors: string[]): string {
  return `() => ${selectors.map(isShown).join(' && ')}`;
}

/**
 * Runs before the page's own scripts: long tasks, click times, the visibility test, and until(),
 * which checks once per animation frame (like Playwright's polling: 'raf'). It is called through
 * page.evaluate because waitForFunction evaluates its predicate with eval(), which the portal's
 * Content-Security-Policy forbids.
 */
const INIT_SCRIPT = `
  window.__bench = {
    longTasks: [],
    clicks: [],
    until(check, limitMs) {
      return new Promise((resolve, reject) => {
        const started = performance.now();
        const tick = () => {
          let done = false;
          try {
            done = check();
          } catch {
            done = false;
          }
          if (done) resolve(performance.now());
          else if (performance.now() - started > limitMs) reject(new Error('not shown after ' + limitMs + ' ms'));
          else requestAnimationFrame(tick);
        };
        tick();
      });
    },
    /** until(), as a wall-clock time (ms since the epoch): comparable across a navigation. */
    async untilAt(check, limitMs) {
      return performance.timeOrigin + (await this.until(check, limitMs));
    },
    shown(el) {
      if (!el) return false;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) return false;
      const style = getComputedStyle(el);
      return style.visibility !== 'hidden' && style.display !== 'none';
    },
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.longTasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  addEventListener('click', (e) => {
    window.__bench.clicks.push(e.timeStamp);
    // Kept for the next document, should the click load one (a link of Portico's first screen).
    sessionStorage.setItem('__benchClickAt', String(performance.timeOrigin + e.timeStamp));
  }, true);
`;

/**
 * --click page: from the document's first animation frame, the row is clicked (`element.click()`)
 * in the frame where it is first shown; then its details are looked for frame by frame. Resolves
 * `window.__bench.clickedInPage` with both times (the page's clock). Runs after INIT_SCRIPT.
 */
function clickInPageScript(row: { selector: string; details: string }): string {
  return `
    window.__bench.clickedInPage = new Promise((resolve, reject) => {
      const details = ${row.details};
      let shownAt;
      const tick = () => {
        if (performance.now() > ${STEP_LIMIT_MS}) return reject(new Error('not usable after ${STEP_LIMIT_MS} ms'));
        if (shownAt === undefined) {
          const el = document.querySelector(${JSON.stringify(row.selector)});
          if (el && window.__bench.shown(el)) {
            shownAt = performance.now();
            el.click();
          }
        } else if (details()) {
          return resolve({ shownAt, usableAt: performance.now() });
        }
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
  `;
}

interface Run {
  tool: string;
  round: number;
  /** Navigation start → the first operation shown. */
  shownMs: number;
  /** The first click (its event time) → the operation's details shown. */
  openMs: number;
  /** Navigation start → the details shown: usable. */
  usableMs: number;
  /** The click loaded another document (Portico's first screen before the app had run). */
  navigated: boolean;
  domContentLoadedMs: number;
  /** When the operations' data (index or document) had arrived. */
  dataMs: number;
  dataBytes: number;
  dataDecodedBytes: number;
  /** Main-thread tasks over 50 ms before usable. */
  longTaskMs: number;
  longestTaskMs: number;
  jsHeapMiB: number;
  /** Resource timing until usable: what was fetched when (the critical path). */
  resources: { path: string; type: string; startMs: number; endMs: number; bytes: number }[];
  scripts: ScriptFetch[];
  /** Bytes of the scripts fetched after the page was usable (prefetched at idle), within `scripts`. */
  laterScriptBytes: number;
  pageErrors: string[];
}

/** The page's clock (ms since navigation start) at the first animation frame where `check` holds. */
async function waitFor(page: Page, check: string): Promise<number> {
  return Number(await page.evaluate(`window.__bench.until(${check}, ${STEP_LIMIT_MS})`));
}

/**
 * The wall-clock time (ms since the epoch) of the first animation frame where `check` holds, in
 * this document or in the one a click navigated to (Portico's first screen before the app has run).
 */
async function waitForAt(page: Page, check: string): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      return Number(await page.evaluate(`window.__bench.untilAt(${check}, ${STEP_LIMIT_MS})`));
    } catch (err) {
      if (attempt >= 20 || !/context was destroyed|navigat/i.test(String(err))) throw err;
      await page.waitForLoadState('domcontentloaded');
    }
  }
}

/** How long a page must have made no request before what it loads later is counted. */
const NETWORK_QUIET_MS = 2000;

/**
 * Resolves once the page has made no request for NETWORK_QUIET_MS (at most 15 s). Playwright's
 * networkidle (500 ms without a connection) can come just before a page loads what it loads once
 * the visitor leaves it alone (Portico's app behind its first screen, decision 068), whose
 * scripts would then not be counted.
 */
async function networkSettled(page: Page): Promise<void> {
  let last = performance.now();
  const seen = () => {
    last = performance.now();
  };
  page.on('request', seen).on('requestfinished', seen).on('requestfailed', seen);
  const limit = last + 15_000;
  try {
    await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
    while (performance.now() - last < NETWORK_QUIET_MS && performance.now() < limit)
      await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    page.off('request', seen).off('requestfinished', seen).off('requestfailed', seen);
  }
}

async function measure(browser: Browser, tool: Tool, round: number, profileTo?: string): Promise<Run> {
  const context = await browser.newContext({ viewport: VIEWPORT, ...tool.context });
  try {
    await context.addInitScript({ content: INIT_SCRIPT });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const readScripts = trackScripts(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    if (profileTo) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    const clickInPage = CLICK === 'page' && tool.row !== undefined;
    if (clickInPage) await context.addInitScript({ content: clickInPageScript(tool.row!) });
    await page.goto(tool.url, { waitUntil: 'commit', timeout: STEP_LIMIT_MS });
    const startedAt = Number(await page.evaluate('performance.timeOrigin'));
    let shownMs: number;
    let usableAt: number;
    if (clickInPage) {
      const auto = (await page.evaluate('window.__bench.clickedInPage')) as {
        shownAt: number;
        usableAt: number;
      };
      shownMs = auto.shownAt;
      usableAt = startedAt + auto.usableAt;
    } else {
      shownMs = await waitFor(page, tool.shown);
      const opened = await tool.open(page);
      usableAt = await waitForAt(page, opened);
    }
    const usableMs = usableAt - startedAt;
    const documentStart = Number(await page.evaluate('performance.timeOrigin'));
    const navigated = documentStart !== startedAt;
    // Figures read in the page below are in the clock of the document shown now.
    const usableInDocument = usableAt - documentStart;
    if (profileTo) {
      const { profile } = await cdp.send('Profiler.stop');
      fs.writeFileSync(profileTo, JSON.stringify(profile));
    }
    const inPage = (await page.evaluate(`(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const data = performance.getEntriesByType('resource').find((e) => new URL(e.name).pathname === ${JSON.stringify(tool.dataPath)});
      const tasks = window.__bench.longTasks.filter(([start]) => start < ${usableInDocument});
      return {
        firstClick: window.__bench.clicks[0] ?? null,
        domContentLoadedMs: nav ? nav.domContentLoadedEventEnd : null,
        dataMs: data ? data.responseEnd : null,
        dataBytes: data ? data.encodedBodySize : null,
        dataDecodedBytes: data ? data.decodedBodySize : null,
        longTaskMs: tasks.reduce((s, [, d]) => s + d, 0),
        longestTaskMs: tasks.reduce((m, [, d]) => Math.max(m, d), 0),
        resources: performance.getEntriesByType('resource').map((e) => ({
          path: new URL(e.name).pathname,
          type: e.initiatorType,
          startMs: Math.round(e.startTime),
          endMs: Math.round(e.responseEnd),
          bytes: e.encodedBodySize,
        })),
      };
    })()`)) as {
      firstClick: number | null;
      domContentLoadedMs: number | null;
      dataMs: number | null;
      dataBytes: number | null;
      dataDecodedBytes: number | null;
      longTaskMs: number;
      longestTaskMs: number;
      resources: Run['resources'];
    };
    // Fetched by the time the page became usable; what it fetches later (at idle) is counted apart.
    const usableScripts = new Set((await readScripts()).map((x) => x.url));
    const { metrics } = await cdp.send('Performance.getMetrics');
    const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
    // Whatever else the page loads after it became usable still counts as its JavaScript.
    await networkSettled(page);
    const scripts = await readScripts();
    return {
      tool: tool.name,
      round,
      shownMs,
      openMs: navigated
        ? usableAt - Number(await page.evaluate(`sessionStorage.getItem('__benchClickAt')`))
        : inPage.firstClick === null
          ? Number.NaN
          : usableInDocument - inPage.firstClick,
      usableMs,
      navigated,
      domContentLoadedMs: inPage.domContentLoadedMs ?? Number.NaN,
      dataMs: inPage.dataMs ?? Number.NaN,
      dataBytes: inPage.dataBytes ?? Number.NaN,
      dataDecodedBytes: inPage.dataDecodedBytes ?? Number.NaN,
      longTaskMs: inPage.longTaskMs,
      longestTaskMs: inPage.longestTaskMs,
      jsHeapMiB: heap / 2 ** 20,
      resources: inPage.resources,
      scripts,
      laterScriptBytes: scripts.filter((x) => !usableScripts.has(x.url)).reduce((sum, x) => sum + x.bytes, 0),
      pageErrors,
    };
  } finally {
    await context.close();
  }
}

// --- The try-out console (issue 12): opening it on one of the document's operations. ---

interface TryoutRun {
  /**
   * Click on 'Try it out' as soon as it is shown (before the page is idle, so before the console's
   * chunks are prefetched) → the console's form shown: the chunks are fetched by this open.
   */
  coldOpenMs: number;
  /** The same once the page has settled (a visitor reading the operation first): the first open. */
  firstOpenMs: number;
  /** Closed and opened again (chunk loaded): what every later open costs. */
  reopenMs: number;
  /** Bytes (brotli/encoded) of the scripts fetched for the console, i.e. not on the first load. */
  consoleScriptBytes: number;
}

/**
 * Opens the console on the deep-linked operation, timing click → form shown in the page: in one
 * fresh context as soon as its button is shown (cold), in another once the page is idle (first
 * open), then again after closing it (reopen).
 */
async function measureTryout(browser: Browser, key: string): Promise<TryoutRun> {
  const details = `[data-operation="${key}"] [data-testid="try-out"]`;
  const session = async <T>(
    use: (page: Page, open: () => Promise<number>, close: () => Promise<void>) => Promise<T>,
  ) => {
    const context = await browser.newContext({ viewport: VIEWPORT, ...porticoContext(origin) });
    try {
      await context.addInitScript({ content: INIT_SCRIPT });
      const page = await context.newPage();
      await page.goto(`${origin}/documentation/${ALIAS}#operation/${encodeURIComponent(key)}`, {
        waitUntil: 'commit',
        timeout: STEP_LIMIT_MS,
      });
      await waitFor(page, shownCheck(details));
      const open = async () => {
        const clicks = (await page.evaluate('window.__bench.clicks.length')) as number;
        await page.locator(details).click();
        const shownAt = await waitFor(page, shownCheck('[data-testid="tryout-panel"] button[type="submit"]'));
        const clickAt = (await page.evaluate(`window.__bench.clicks[${clicks}]`)) as number;
        return shownAt - clickAt;
      };
      const close = async () => {
        await page.keyboard.press('Escape');
        await page.locator('[data-testid="tryout-panel"]').waitFor({ state: 'detached' });
      };
      return await use(page, open, close);
    } finally {
      await context.close();
    }
  };
  const cold = await session(async (page, open) => {
    const before = (await page.evaluate('performance.getEntriesByType("resource").length')) as number;
    const ms = await open();
    await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
    const bytes = (await page.evaluate(`performance.getEntriesByType('resource').slice(${before})
      .filter((e) => e.initiatorType === 'script' || e.name.endsWith('.js'))
      .reduce((s, e) => s + e.encodedBodySize, 0)`)) as number;
    return { ms, bytes };
  });
  const settled = await session(async (page, open, close) => {
    await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
    const first = await open();
    await close();
    return { first, again: await open() };
  });
  return {
    coldOpenMs: cold.ms,
    firstOpenMs: settled.first,
    reopenMs: settled.again,
    consoleScriptBytes: cold.bytes,
  };
}

const baselineTools = baseline
  ? porticoTools(
      baseline.origin,
      path.join(baseline.checkout, 'apps/web/dist'),
      '-base',
      ` baseline (${path.basename(baseline.checkout)})`,
    )
  : [];
const groups = options.tools.split(',').map((name) => {
  const tool = TOOLS.find((t) => t.name === name.trim());
  if (!tool) throw new Error(`unknown tool ${name}: ${TOOLS.map((t) => t.name).join(', ')}`);
  // With --baseline, each Portico page goes with the baseline's in the same round.
  const twin = baselineTools.find((t) => t.name === `${tool.name}-base`);
  return twin ? [tool, twin] : [tool];
});
const chosen = groups.flat();
/**
 * A round's order: a pair's two pages take turns at going first, since the page loaded right after
 * another tool's (Swagger UI's, whose renderer is still being torn down) starts on a busier machine.
 */
const roundOrder = (round: number): Tool[] =>
  groups.flatMap((group) => (round % 2 === 1 ? group : [...group].reverse()));
// No request leaves the machine: every host name but the loopback ones fails to resolve.
const browser = await launchChromium([
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
]);
const chromiumVersion = browser.version();
const loadBefore = loadAverage();
console.log(
  `Chromium ${chromiumVersion}, ${RUNS} runs each, clicked by ${CLICK === 'page' ? 'the page' : 'Playwright'}, load average before: ${loadBefore.join(' ')}`,
);
const runs: Run[] = [];
const tryoutRuns: TryoutRun[] = [];
const profiles: { tool: Tool; file: string }[] = [];
try {
  for (let round = 1; round <= RUNS; round++) {
    for (const tool of roundOrder(round)) {
      const run = await measure(browser, tool, round);
      runs.push(run);
      console.log(
        `  ${tool.name.padEnd(17)} round ${round}: shown ${seconds(run.shownMs)}, usable ${seconds(run.usableMs)}` +
          (run.navigated ? ' (the click loaded the server-rendered operation)' : '') +
          (run.pageErrors.length ? ` (${run.pageErrors.length} page errors)` : ''),
      );
    }
  }
  if (chosen.some((t) => t.name.startsWith('portico'))) {
    for (let round = 1; round <= RUNS; round++) {
      const run = await measureTryout(browser, deepKey);
      tryoutRuns.push(run);
      console.log(
        `  try-out  round ${round}: cold open ${run.coldOpenMs.toFixed(0)} ms, first open once idle ${run.firstOpenMs.toFixed(0)} ms, reopen ${run.reopenMs.toFixed(0)} ms`,
      );
    }
  }
  if (options.profile) {
    fs.mkdirSync(resultsDir, { recursive: true });
    for (const tool of chosen) {
      const file = path.join(resultsDir, `documentation-${tool.name}.cpuprofile`);
      const run = await measure(browser, tool, 0, file);
      console.log(
        `  ${tool.name.padEnd(17)} profiled: usable ${seconds(run.usableMs)} → ${path.relative(root, file)}`,
      );
      profiles.push({ tool, file });
    }
  }
} catch (err) {
  if (portal.exited()) console.error(`The portal stopped during the runs:\n${portal.output()}`);
  throw err;
} finally {
  await browser.close();
  await portal.stop();
  if (baseline) {
    await baseline.portal.stop();
    fs.rmSync(baseline.dataDir, { recursive: true, force: true });
  }
  await new Promise((resolve) => staticServer.close(resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
const loadAfter = loadAverage();

// 5. The figures.
function median(values: number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
function seconds(ms: number): string {
  return Number.isNaN(ms) ? '–' : `${(ms / 1000).toFixed(2)} s`;
}
function kib(bytes: number): string {
  return Number.isNaN(bytes) ? '–' : `${(bytes / 1024).toFixed(1)} KiB`;
}
function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

interface Summary {
  tool: Tool;
  runs: Run[];
  med: (key: keyof Run) => number;
}
const summaries: Summary[] = chosen.map((tool) => {
  const own = runs.filter((r) => r.tool === tool.name);
  return { tool, runs: own, med: (key) => median(own.map((r) => r[key] as number)) };
});
const portico = summaries.find((s) => s.tool.name === 'portico');

const rows: string[][] = [
  [
    'page',
    'shown',
    'open',
    'usable',
    'usable min-max',
    'vs Portico',
    'JS (brotli)',
    'of which after usable',
    'data',
    'data in',
    'long tasks',
  ],
];
for (const s of summaries) {
  const usable = s.runs.map((r) => r.usableMs);
  const scripts = s.runs[0]?.scripts ?? [];
  const js = scripts.reduce((sum, x) => sum + x.bytes, 0);
  rows.push([
    s.tool.label,
    seconds(s.med('shownMs')),
    seconds(s.med('openMs')),
    seconds(s.med('usableMs')),
    `${seconds(Math.min(...usable))}-${seconds(Math.max(...usable))}`,
    portico ? `${(s.med('usableMs') / portico.med('usableMs')).toFixed(1)}x` : '–',
    `${kib(js)} in ${scripts.length}`,
    kib(s.runs[0]?.laterScriptBytes ?? 0),
    `${kib(s.med('dataBytes'))} (${mib(s.med('dataDecodedBytes'))})`,
    seconds(s.med('dataMs')),
    `${seconds(s.med('longTaskMs'))} (max ${seconds(s.med('longestTaskMs'))})`,
  ]);
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log(
  `\nMedians of ${RUNS} runs (Chromium ${chromiumVersion}, ${os.cpus().length} cores, Node ${process.versions.node}, ` +
    `load average ${loadAfter.join(' ')} after):`,
);
console.log(line(rows[0]!));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of rows.slice(1)) console.log(line(row));
// Issue 29's aims: Portico usable at least 5x sooner than the fastest of the other tools, and the
// deep-linked operation shown in under 0.3 s.
const others = summaries.filter((s) => !s.tool.name.startsWith('portico'));
if (portico && others.length > 0) {
  const fastest = others.reduce((a, b) => (b.med('usableMs') < a.med('usableMs') ? b : a));
  const link = summaries.find((s) => s.tool.name === 'portico-link');
  console.log(
    `\nPortico usable in ${seconds(portico.med('usableMs'))}, the fastest other (${fastest.tool.label}) in ` +
      `${seconds(fastest.med('usableMs'))}: ${(fastest.med('usableMs') / portico.med('usableMs')).toFixed(1)}x sooner ` +
      `(aim 5x, clicked by ${CLICK === 'page' ? 'the page' : 'Playwright'})` +
      (link ? `; deep link usable in ${seconds(link.med('usableMs'))} (aim under 0.30 s)` : ''),
  );
}
for (const s of summaries) {
  console.log(`\n${s.tool.label}: scripts (brotli), JS heap ${s.med('jsHeapMiB').toFixed(0)} MiB at usable`);
  for (const x of s.runs[0]?.scripts ?? []) console.log(`  ${x.url}  ${kib(x.bytes)}`);
  const errors = new Set(s.runs.flatMap((r) => r.pageErrors));
  for (const e of errors) console.log(`  page error: ${e.slice(0, 200)}`);
}

fs.mkdirSync(resultsDir, { recursive: true });
const resultFile = path.join(
  resultsDir,
  `documentation-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
);
fs.writeFileSync(
  resultFile,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      chromium: chromiumVersion,
      node: process.versions.node,
      cores: os.cpus().length,
      load: { before: loadBefore, after: loadAfter },
      document: { operations: operationCount, bytes: Buffer.byteLength(specText) },
      versions: {
        octokitOpenapi: version('@octokit/openapi'),
        redoc: version('redoc'),
        swaggerUi: version('swagger-ui-dist'),
        scalar: version('@scalar/api-reference'),
      },
      importMs,
      portalReadyMs: portal.ms,
      click: CLICK,
      runs,
      tryoutRuns,
    },
    null,
    2,
  ),
);
if (tryoutRuns.length > 0) {
  console.log(
    `\ntry-out console on ${deepKey}: cold open ${median(tryoutRuns.map((r) => r.coldOpenMs)).toFixed(0)} ms ` +
      `(its chunks ${kib(tryoutRuns[0]!.consoleScriptBytes)}), first open once idle ` +
      `${median(tryoutRuns.map((r) => r.firstOpenMs)).toFixed(0)} ms, reopen ${median(tryoutRuns.map((r) => r.reopenMs)).toFixed(0)} ms (medians)`,
  );
}
console.log(`\nevery run: ${path.relative(root, resultFile)}`);
for (const { tool, file } of profiles) printProfile(tool, file);

/** Self time of the profiled run by source file (through the source maps) and by function. */
function printProfile(tool: Tool, file: string): void {
  interface ProfileNode {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  }
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const maps = new Map<string, SourceMap | null>();
  const sourceMapOf = (url: string): SourceMap | null => {
    if (!maps.has(url)) {
      let map: SourceMap | null = null;
      try {
        const mapFile = tool.sourceMap(new URL(url).pathname);
        if (mapFile && fs.existsSync(mapFile))
          map = new SourceMap(JSON.parse(fs.readFileSync(mapFile, 'utf8')));
      } catch {
        map = null;
      }
      maps.set(url, map);
    }
    return maps.get(url) ?? null;
  };
  /** Where a sampled function comes from: its package, or its file when it is the tool's own. */
  const place = (node: ProfileNode): { group: string; fn: string } => {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const name = functionName || '(anonymous)';
    if (!url) return { group: name, fn: name };
    // Empty when the position is not mapped; originalSource missing on a segment without source.
    const entry = (sourceMapOf(url)?.findEntry(lineNumber, columnNumber) ?? {}) as Partial<SourceMapping> & {
      name?: string;
    };
    if (typeof entry.originalSource === 'string') {
      const source = entry.originalSource.replace(/^webpack:\/\/[^/]*\//, '').replace(/^(\.\.?\/)+/, '');
      const inPackage = source.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
      const original = `${source.replace(/^.*node_modules\//, '')}:${(entry.originalLine ?? 0) + 1}`;
      return { group: inPackage ? inPackage[1]! : source, fn: `${entry.name ?? name} ${original}` };
    }
    const pathname = new URL(url).pathname;
    return { group: pathname, fn: `${name} ${pathname}:${lineNumber + 1}` };
  };
  const byGroup = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    if (!node || node.callFrame.functionName === '(idle)') return;
    total += ms;
    const { group, fn } = place(node);
    byGroup.set(group, (byGroup.get(group) ?? 0) + ms);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
  });
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, ms]) => `    ${seconds(ms).padStart(8)}  ${k}`)
      .join('\n');
  console.log(
    `\n${tool.label}: main thread busy ${seconds(total)} until usable (profiled run), self time by`,
  );
  console.log(`  package or file:\n${top(byGroup, 10)}`);
  console.log(`  function:\n${top(byFunction, 12)}`);
}
