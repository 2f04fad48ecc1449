import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_ENTRY, serverCommand, serverProcess } from './node-flags.ts';

const root = path.resolve(import.meta.dirname, '../../..');

function checkoutWith(serve: string | undefined): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-flags-'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: serve ? { serve } : {} }));
  return dir;
}

describe('the server process', () => {
  it("is started as package.json's serve script says, and npm start starts it the same way", () => {
    const server = serverProcess(root);
    expect(server).toEqual({
      flags: ['--max-semi-space-size=8', '--heap-growing-percent=25', '--expose-gc-as=porticoCollectGarbage'],
      env: { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' },
    });
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const assignments = Object.entries(server.env).map(([name, value]) => `${name}=${value}`);
    expect(pkg.scripts['start:node24']).toContain(
      `env ${assignments.join(' ')} node ${server.flags.join(' ')} apps/server/src/server.ts`,
    );
  });

  it('has no flags and no environment of its own when the script gives none', () => {
    for (const serve of ['node scripts/node24.mjs node apps/server/src/server.ts', undefined]) {
      const dir = checkoutWith(serve);
      try {
        expect(serverProcess(dir)).toEqual({ flags: [], env: {} });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('reads only the assignments given to env before node, not words elsewhere in the script', () => {
    const dir = checkoutWith(
      'FOO=1 node scripts/node24.mjs env -u X A_B=c=d lower=no node --x=1 apps/server/src/server.ts --y=2',
    );
    try {
      expect(serverProcess(dir)).toEqual({ flags: ['--x=1'], env: { A_B: 'c=d' } });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives a command line of the checkout's flags, then the flags asked for, then the checkout's entry point", () => {
    const dir = checkoutWith(`node scripts/node24.mjs env A=1 node --x=1 --y=2 ${SERVER_ENTRY}`);
    try {
      expect(serverCommand(dir, ['--cpu-prof', '--import', 'probe.ts'])).toEqual({
        args: ['--x=1', '--y=2', '--cpu-prof', '--import', 'probe.ts', path.join(dir, SERVER_ENTRY)],
        env: { A: '1' },
      });
      expect(serverCommand(dir).args).toEqual(['--x=1', '--y=2', path.join(dir, SERVER_ENTRY)]);
      expect(fs.existsSync(path.join(root, SERVER_ENTRY))).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
