import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.ts';
import type { Db } from './db/client.ts';
import { MAX_SOURCE_BYTES } from './openapi/parse.ts';

// The database, the importer and what they load are imported where a command needs them: a
// usage error, or the process that only runs the command again (rerunWithoutWasmOptimizer),
// answers without loading them.

/**
 * Portal administration from the command line: `npm run portal -- <command>`. Uses the same
 * environment as the server (DATA_DIR or DATABASE_URL, PUBLIC_URL).
 */

const USAGE = `Usage: npm run portal -- <command> [options]

Commands:
  import-api <file> --product <alias> [--alias <docAlias>] [--title <title>] [--api-id <id>]
             [--plan <text>] [--deprecated] [--category <name>]
      Imports an OpenAPI document (Swagger 2.0, OpenAPI 3.0 or 3.1; JSON or YAML) as an API
      documentation, answered in the sandbox at /sandbox/<docAlias>, and links it to the product
      (created when it does not exist, from the document's info: description, contact, license,
      external docs, with a generated image). Re-importing the same alias replaces the document.
      --alias defaults to the file name without its extension, other dots as '-' (a.b.json: a-b).
      --category puts the product in that category (an existing one by name, else a new one).
  export-content [<dir>]
      Writes the blog's articles, the FAQ (drafts included), the basic pages, the site's texts and
      the Quick Start stories as they are in the database (edited in the console included) to
      <dir>/blog/articles/*.md, <dir>/faq.yaml, <dir>/pages/*.md, <dir>/site/*.yaml and
      <dir>/quickstart/stories.yaml, the format content/ uses (default:
      CONTENT_DIR), so that they can be kept in git; files of deleted articles and pages are removed
      (modules/content/README.md, modules/pages/README.md, modules/site/README.md,
      modules/quickstart/README.md). The API products
      edited in the console are written into their entries of <dir>/catalog/*.yaml
      (modules/catalog/README.md). Images uploaded in the console go to <dir>/images/console/,
      named as they are served (modules/console-images/README.md).
`;

/** Ends the command with a message and an exit status, after every open resource was closed. */
class CommandFailure extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

function fail(message: string, code = 1): never {
  throw new CommandFailure(message, code);
}

function parseImportApiArgs(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        product: { type: 'string' },
        alias: { type: 'string' },
        title: { type: 'string' },
        'api-id': { type: 'string' },
        plan: { type: 'string' },
        deprecated: { type: 'boolean' },
        category: { type: 'string' },
      },
    });
  } catch (err) {
    fail(`${(err as Error).message}\n\n${USAGE}`, 2);
  }
}

/** Refuses what is not a file or is too large before anything reads it whole. */
function checkDocumentFile(file: string): void {
  let size: number;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) fail(`Cannot read ${file}: not a file.`);
    size = stat.size;
  } catch (err) {
    if (err instanceof CommandFailure) throw err;
    fail(`Cannot read ${file}: ${(err as Error).message}`);
  }
  if (size > MAX_SOURCE_BYTES) {
    fail(`${file}: The document is too large (larger than ${MAX_SOURCE_BYTES / 1024 / 1024} MB).`);
  }
}

function readDocument(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    fail(`Cannot read ${file}: ${(err as Error).message}`);
  }
}

/** V8's flag that keeps WebAssembly on its baseline compiler (Liftoff). */
const LIFTOFF_ONLY = '--liftoff-only';

/**
 * Runs this command again in a Node process whose WebAssembly is never optimized, when it is to
 * open the embedded database (decision 036). PGlite's postgres is one large WebAssembly module:
 * V8's optimizing tier (TurboFan) compiling its hot functions took the command's peak memory from
 * about 650 MB to 1.25 GB on a fresh data folder (and from 260 to 650 MB on an existing one), for
 * code that a one-shot command barely runs. The flag must be given at start-up (setting it later
 * does not reach the WebAssembly compiler), hence a second process. Returns false when this
 * process is already the right one.
 */
function rerunWithoutWasmOptimizer(): boolean {
  if (process.execArgv.includes(LIFTOFF_ONLY)) return false;
  const run = spawnSync(process.execPath, [LIFTOFF_ONLY, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  if (run.error) throw run.error;
  if (run.signal) process.kill(process.pid, run.signal);
  process.exitCode = run.status ?? 1;
  return true;
}

/** The configuration, or the command ends with what is wrong in it (exit 78, EX_CONFIG). */
function commandConfig(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message, 78);
    throw err;
  }
}

/**
 * Opens the database, migrates it and runs `work` under the start-up lock (a server starting
 * meanwhile may be migrating or importing content); the database is closed on every way out.
 */
async function withCommandDatabase<T>(config: Config, work: (db: Db) => Promise<T>): Promise<T> {
  const [{ DataDirInUseError }, { openDatabase }, { migrateToLatest }, { withStartupLock }] =
    await Promise.all([
      import('./db/data-dir-lock.ts'),
      import('./db/client.ts'),
      import('./db/migrate.ts'),
      import('./db/startup-lock.ts'),
    ]);
  let handle;
  try {
    handle = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      onConnectionError: (err) => console.error(`database connection error: ${err.message}`),
    });
  } catch (err) {
    if (err instanceof DataDirInUseError)
      fail(`${err.message}\nStop the server first, or use DATABASE_URL.`, 75);
    throw err;
  }
  try {
    const db = handle.db;
    return await withStartupLock(db, handle.kind, async () => {
      await migrateToLatest(db);
      return work(db);
    });
  } finally {
    await handle.close();
  }
}

/**
 * Checks the document first and opens the database last: a refused document costs no database
 * start, and the database, once opened, is closed on every way out.
 */
async function importApiCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseImportApiArgs(args);
  const [file, ...extra] = positionals;
  if (!file || extra.length) fail(`import-api needs exactly one file.\n\n${USAGE}`, 2);
  if (!values.product) fail(`import-api needs --product <alias>.\n\n${USAGE}`, 2);
  checkDocumentFile(file);

  const config = commandConfig();
  // PostgreSQL runs in its own process: only the embedded database needs this one rerun.
  if (!config.databaseUrl && rerunWithoutWasmOptimizer()) return;

  const text = readDocument(file);
  const [store, importer, openapi] = await Promise.all([
    import('./modules/catalog/store.ts'),
    import('./modules/catalog/import-api.ts'),
    import('./openapi/index.ts'),
  ]);
  const { DocumentationInputError } = store;
  const { importApi, prepareApiImport } = importer;
  const { formatProblem, OpenApiImportError } = openapi;

  let prepared;
  try {
    prepared = await prepareApiImport(
      { name: file, text },
      {
        product: values.product,
        alias: values.alias,
        title: values.title,
        apiId: values['api-id'],
        plan: values.plan,
        deprecated: values.deprecated,
        category: values.category,
      },
      config.publicUrl,
      // A command has no requests to keep answering: no worker thread to start and feed.
      { inline: true },
    );
  } catch (err) {
    if (err instanceof OpenApiImportError) {
      const [summary] = err.message.split('\n');
      fail(`${file}: ${summary}\n${err.problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`);
    }
    if (err instanceof DocumentationInputError) fail(err.message);
    throw err;
  }

  let result;
  try {
    result = await withCommandDatabase(config, (db) => importApi(db, prepared));
  } catch (err) {
    if (err instanceof DocumentationInputError) fail(err.message);
    throw err;
  }

  const { documentation: d, product: p } = result;
  const index = d.processed?.operations;
  const lines = [
    `${d.status === 'created' ? 'Imported' : d.status === 'updated' ? 'Updated' : 'Unchanged:'} ${d.title} as '${d.alias}'` +
      (d.processed ? ` (${d.processed.sourceSpecVersion} → OpenAPI 3.1)` : ''),
  ];
  if (index) {
    lines.push(
      `  ${index.operationCount} operations in ${index.tags.length} groups: ${index.tags.join(', ')}`,
    );
    if (index.webhookCount) lines.push(`  ${index.webhookCount} webhooks`);
  }
  lines.push(
    `  ${p.created ? 'Created product' : 'Product'} '${p.alias}' (${p.title}, ${p.uuid})` +
      (p.category ? ` in category '${p.category}'` : ''),
    `  Documentation: ${config.publicUrl}/documentation/${d.alias}`,
    `  Sandbox:       ${config.publicUrl}/sandbox/${d.alias}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function exportContentCommand(args: string[]): Promise<void> {
  if (args.length > 1) fail(`export-content takes at most one folder.\n\n${USAGE}`, 2);
  const config = commandConfig();
  if (!config.databaseUrl && rerunWithoutWasmOptimizer()) return;
  const dir = args[0] ?? config.contentDir;
  const { exportContent } = await import('./content/exporters.ts');
  const storage = await (await import('./lib/storage.ts')).openStorage(config.storage);
  const { articles, faq, pages, site, catalog, stories, images } = await withCommandDatabase(config, (db) =>
    exportContent(db, storage, dir).finally(() => storage.close()),
  );
  const removed = [...articles.removed, ...pages.removed];
  process.stdout.write(
    `Wrote ${articles.written.length} articles, ${faq.questions} FAQ questions (faq.yaml), ${pages.written.length} pages and ${stories} Quick Start stories to ${dir}` +
      (articles.translations.length + pages.translations.length
        ? `, with ${articles.translations.length + pages.translations.length} translation files of articles and pages`
        : '') +
      (removed.length ? `; removed ${removed.join(', ')}` : '') +
      (site.length ? `; wrote ${site.join(', ')}` : '') +
      '\n' +
      (catalog.written.length
        ? `Wrote the products edited in the console (${catalog.written.join(', ')}) to ${catalog.files.join(', ')}\n`
        : '') +
      (catalog.tables.length
        ? `Wrote the comparison tables saved in the console (${catalog.tables.join(', ')})\n`
        : '') +
      (catalog.skipped.length
        ? `Not in any content/catalog file (kept in the database only): ${catalog.skipped.join(', ')}\n`
        : '') +
      (images.written.length ? `Wrote ${images.written.length} uploaded images to images/console\n` : '') +
      (images.missing.length ? `Uploaded images whose file is missing: ${images.missing.join(', ')}\n` : ''),
  );
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'import-api':
      return importApiCommand(rest);
    case 'export-content':
      return exportContentCommand(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return;
    default:
      fail(`Unknown command '${command}'.\n\n${USAGE}`, 2);
  }
}

// Every command closes what it opened before its promise settles, so exiting here loses nothing.
main(process.argv.slice(2)).then(
  () => process.exit(), // process.exitCode: 0, or the status of the command run again
  (err: unknown) => {
    if (err instanceof CommandFailure) {
      process.stderr.write(`${err.message}\n`);
      process.exit(err.exitCode);
    }
    console.error(err);
    process.exit(1);
  },
);
