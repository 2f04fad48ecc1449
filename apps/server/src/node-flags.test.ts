import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverNodeFlags } from './node-flags.ts';

const root = path.resolve(import.meta.dirname, '../../..');

describe('the server process flags', () => {
  it("are those of package.json's serve script, and npm start starts the server with the same", () => {
    const flags = serverNodeFlags(root);
    expect(flags).toEqual(['--max-semi-space-size=8']);
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts['start:node24']).toContain(`node ${flags.join(' ')} apps/server/src/server.ts`);
  });

  it('are none for a checkout whose script gives none', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-flags-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'package.json'),
        JSON.stringify({ scripts: { serve: 'node scripts/node24.mjs node apps/server/src/server.ts' } }),
      );
      expect(serverNodeFlags(dir)).toEqual([]);
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: {} }));
      expect(serverNodeFlags(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
