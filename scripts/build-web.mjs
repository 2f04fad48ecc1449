#!/usr/bin/env node
// Builds the web app when its sources changed since the last build, and only then.
//
//   node scripts/build-web.mjs [--force]
//
// `npm start` and the browser tests call this: a second start with unchanged sources skips the
// Vite build (tens of seconds on a small machine). What counts as a source: the web app's files,
// the contracts package it imports, the lock file (dependency versions) and the shared tsconfig.
// The fingerprint of the inputs is written beside the build, so a build that failed half-way, a
// changed file or a deleted dist/ all lead to a new build.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'apps/web/dist');
const stampFile = path.join(dist, '.sources-fingerprint');
const inputs = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'apps/web/tsconfig.json',
  'packages/contracts/src',
  'packages/contracts/package.json',
  'tsconfig.base.json',
  'package-lock.json',
];

/** Every file under the inputs, sorted, so the fingerprint does not depend on directory order. */
function files(relative) {
  const full = path.join(root, relative);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [relative];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => files(path.join(relative, entry.name)));
}

function fingerprint() {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(files)) {
    hash.update(file.split(path.sep).join('/')).update('\0');
    hash.update(fs.readFileSync(path.join(root, file))).update('\0');
  }
  return hash.digest('hex');
}

const wanted = fingerprint();
const force = process.argv.includes('--force');
const built = fs.existsSync(path.join(dist, 'index.html')) && fs.existsSync(stampFile);
if (!force && built && fs.readFileSync(stampFile, 'utf8').trim() === wanted) {
  process.stdout.write('Web app is up to date (apps/web/dist); skipping the build.\n');
  process.exit(0);
}

fs.rmSync(stampFile, { force: true });
const result = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], {
  cwd: root,
  stdio: 'inherit',
  shell: process.platform === 'win32',
});
if (result.status !== 0) process.exit(result.status ?? 1);
fs.writeFileSync(stampFile, `${wanted}\n`);
