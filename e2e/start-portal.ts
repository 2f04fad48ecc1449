/**
 * Starts the portal for the browser tests on a fresh data folder, removed again on exit.
 * Run from the repository root (Playwright's webServer does so).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-e2e-'));
const child = spawn(process.execPath, ['apps/server/src/server.ts'], {
  stdio: 'inherit',
  env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'test', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
});
const stop = (signal: NodeJS.Signals) => child.kill(signal);
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
child.on('exit', (code) => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
