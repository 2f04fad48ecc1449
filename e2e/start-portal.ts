/**
 * Starts the portal for the browser tests on a fresh data folder, removed again on exit.
 * Run from the repository root (Playwright's webServer does so). The cloud document viewer is
 * pointed at a local stand-in of Google's API (support/cloud-docs-standin.ts), and one demo
 * documentation gets a chat bot at a local stand-in page (support/chat-bot-standin.ts), on a copy
 * of the demo content.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startChatBotStandIn, withChatBot } from './support/chat-bot-standin.ts';
import { STANDIN_CLIENT_ID, startCloudDocsStandIn } from './support/cloud-docs-standin.ts';
import { seedProviderTeam } from './support/provider-team.ts';
import { serverCommand } from '../apps/server/src/node-flags.ts';

/**
 * The folders of a run are named after its process (`portico-e2e-<pid>-…`): a run killed before
 * its clean-up (a Playwright that gave up waiting, a crash) leaves them behind, and the next start
 * removes those whose process is gone. Folders of runs still going (other ports, other people) stay.
 */
const SCRATCH = /^portico-e2e-(?:content-)?(\d+)-/;

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function removeStaleScratchFolders(): void {
  for (const name of fs.readdirSync(os.tmpdir())) {
    const pid = Number(SCRATCH.exec(name)?.[1]);
    if (!pid || pid === process.pid || running(pid)) continue;
    fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
  }
}

removeStaleScratchFolders();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `portico-e2e-${process.pid}-`));
const contentDir = fs.mkdtempSync(path.join(os.tmpdir(), `portico-e2e-content-${process.pid}-`));
fs.cpSync(process.env.CONTENT_DIR ?? 'content', contentDir, { recursive: true });
// The provider's team the console's tests sign in as (support/provider-team.ts).
await seedProviderTeam(dataDir);
const standIn = await startCloudDocsStandIn();
const bot = await startChatBotStandIn();
const catalogFile = path.join(contentDir, 'catalog', 'documentation.yaml');
fs.writeFileSync(catalogFile, withChatBot(fs.readFileSync(catalogFile, 'utf8'), bot.url));
// Started as `npm run serve` starts it: its Node flags and environment from package.json
// (decisions 070 and 071).
const server = serverCommand(process.cwd());
const child = spawn(process.execPath, server.args, {
  stdio: 'inherit',
  env: {
    CLOUD_DOCS_CLIENT_ID: STANDIN_CLIENT_ID,
    CLOUD_DOCS_AUTH_URL: `${standIn.url}/o/oauth2/v2/auth`,
    CLOUD_DOCS_API_URL: standIn.url,
    CLOUD_DOCS_PDF_URL: `${standIn.url}/document/d/{id}/export?format=pdf`,
    // Fewer results than the demo content's commonest words find, so that the search page's
    // "at least" count and its pager's end are seen (decision 029); the portal's default is 1,000.
    SEARCH_RESULTS_MAX: '20',
    ...process.env,
    ...server.env,
    CONTENT_DIR: contentDir,
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  },
});
const stop = (signal: NodeJS.Signals) => child.kill(signal);
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
child.on('exit', (code) => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(contentDir, { recursive: true, force: true });
  void Promise.all([standIn.close(), bot.close()]).finally(() => process.exit(code ?? 0));
});
