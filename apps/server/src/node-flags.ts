import fs from 'node:fs';
import path from 'node:path';

/**
 * The Node/V8 flags the server's process starts with. Their one home is the `serve` script of the
 * checkout's package.json (`npm start` runs the same command); whoever starts a server process of
 * a checkout (the browser tests' portal, the benches, a baseline checkout's server) passes the
 * flags that checkout's script gives, so that it runs as `npm run serve` would run it.
 *
 * Today one flag (decision 070): `--max-semi-space-size=8`, the main thread's young generation in
 * semi-spaces of 8 MB. V8's default let it grow to 64 MB, which the process kept resident and
 * which every full collection evacuated in its pause.
 */
export function serverNodeFlags(checkout: string): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(checkout, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  const serve = pkg.scripts?.serve ?? '';
  const words = serve.split(/\s+/);
  const entry = words.indexOf('apps/server/src/server.ts');
  const node = words.lastIndexOf('node', entry);
  if (entry === -1 || node === -1) return [];
  return words.slice(node + 1, entry).filter((w) => w.startsWith('--'));
}
