import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { paths } from './src/config/paths';

/**
 * `route-chunks.json` beside index.html: for each page route of the router, the scripts its lazy
 * page needs (its chunk and the chunks that one imports), which the server announces as
 * modulepreload hints in the HTML of that route (plugins/web-app.ts), so the browser fetches them
 * with the entry instead of after it has run. Read from the routes files' own declarations
 * (`const Page = lazyPage(() => import('./page'))` and `{ path: ..., element: <Page /> }`); a
 * route written otherwise simply gets no hints. A route whose page is a route table of its own (the
 * console's `/admin/*`, a `*routes` module) gets none either: that table's routes are listed from
 * its file, each with the scripts of the table's chunk as well as its page's.
 */
function routeChunks(): Plugin {
  const routes: { pattern: string; module: string; from: string }[] = [];
  return {
    name: 'portico-route-chunks',
    apply: 'build',
    // The routes files as written (TSX), before JSX is compiled.
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/][\w-]*routes\.tsx$/.test(id)) return null;
      const pages = new Map<string, string>();
      for (const m of code.matchAll(/const (\w+) = lazyPage\(\(\) => import\('([^']+)'\)\)/g))
        pages.set(m[1]!, path.resolve(path.dirname(id), m[2]!));
      for (const m of code.matchAll(/path:\s*([^,{}]+?),\s*element:\s*<(\w+)/g)) {
        const module = pages.get(m[2]!);
        if (!module || /routes$/.test(module)) continue;
        try {
          const pattern = new Function('paths', `return ${m[1]!}`)(paths) as unknown;
          if (typeof pattern === 'string') routes.push({ pattern, module, from: id });
        } catch {
          // An expression this cannot evaluate: that route gets no hints.
        }
      }
      return null;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
      const byName = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (fileName: string, seen = new Set<string>()): Set<string> => {
        if (seen.has(fileName)) return seen;
        seen.add(fileName);
        for (const dep of byName.get(fileName)?.imports ?? []) closure(dep, seen);
        return seen;
      };
      const out: Record<string, string[]> = {};
      for (const { pattern, module, from } of routes) {
        const chunk = chunks.find(
          (c) => c.isDynamicEntry && c.facadeModuleId?.replace(/\.tsx?$/, '') === module,
        );
        if (!chunk) continue;
        // A routes file loaded lazily itself (the console's table): its chunk comes first.
        const table = chunks.find((c) => !c.isEntry && c.moduleIds.includes(from));
        const files = table ? closure(table.fileName) : new Set<string>();
        closure(chunk.fileName, files);
        out[pattern] = [...files].map((f) => `/${f}`);
      }
      this.emitFile({ type: 'asset', fileName: 'route-chunks.json', source: JSON.stringify(out, null, 1) });
    },
  };
}

/**
 * `assets/first-screen-start-<hash>.js`: a bundle of its own (an entry with no imports) that starts
 * the app on a page with the server's first screen once that page is loaded and left alone
 * (src/first-screen-start.ts, decision 068). The server finds it by its name in `assets`.
 */
function firstScreenStart(): Plugin {
  return {
    name: 'portico-first-screen-start',
    apply: 'build',
    buildStart() {
      this.emitFile({
        type: 'chunk',
        id: fileURLToPath(new URL('./src/first-screen-start.ts', import.meta.url)),
        name: 'first-screen-start',
      });
    },
  };
}

/**
 * Every built script and style sheet also as `.br` (brotli at its best quality, 11) and `.gz`
 * (level 9), which the server sends as they are (@fastify/static `preCompressed`, plugins/web-app.ts)
 * instead of compressing each answer at the fast quality 4: the home page's JavaScript comes over
 * the wire about 15 % smaller for nothing at run time (decision 018). The files are compressed on
 * libuv's thread pool, all at once (the same bytes as one after the other on the main thread, in
 * about half the time on two cores: brotli 11 was a third of the build, bench/README.md).
 */
function precompress(): Plugin {
  const brotli = promisify(brotliCompress);
  const gzipped = promisify(gzip);
  return {
    name: 'portico-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      await Promise.all(
        Object.keys(bundle)
          .filter((name) => /\.(js|css|svg|json)$/.test(name))
          .map(async (name) => {
            const file = path.join(dir, name);
            const data = await fs.promises.readFile(file);
            if (data.length < 1024) return;
            const [br, gz] = await Promise.all([
              brotli(data, {
                params: {
                  [zlib.BROTLI_PARAM_QUALITY]: 11,
                  [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
                  [zlib.BROTLI_PARAM_SIZE_HINT]: data.length,
                },
              }),
              gzipped(data, { level: 9 }),
            ]);
            await Promise.all([
              fs.promises.writeFile(`${file}.br`, br),
              fs.promises.writeFile(`${file}.gz`, gz),
            ]);
          }),
      );
    },
  };
}

/**
 * The modules of the shell chunk (below), when something imports them statically. Of the message
 * catalogue, the areas of contracts' messages/shell.ts only: the features' areas come with their
 * pages (lib/i18n.ts), and messages.ts (the whole catalogue) must stay out, or the shell would
 * import every area.
 */
const SHELL =
  /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](query-core|react-query)|zustand|clsx|@mantine[\\/]core[\\/]esm[\\/](core|utils)|@mantine[\\/]hooks)[\\/]|[\\/]src[\\/](lib[\\/](?!applications-api|upload)|config[\\/])|[\\/]contracts[\\/]src[\\/](messages[\\/](shell|api|catalog|identity|products|sandbox-auth|quickstart)\.ts|format|constants)/;

export default defineConfig({
  plugins: [react(), precompress(), routeChunks(), firstScreenStart()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // What every page runs: React, the router, TanStack Query, the store, Mantine's style
              // system and hooks, the API client and the message catalogue. Rolldown's automatic
              // splitting cut these into a chunk per set of importers (50 scripts for the home page,
              // most under 1 KiB); in one chunk they cost no more bytes and far fewer requests.
              // A module only ever loaded by import() (lib/markdown.ts and its parser) stays out, and so
              // does lib/applications-api.ts, which only the application screens, the terminal and the
              // try-out console use, and lib/upload.ts, which only the console's uploads use.
              name: (id, ctx) =>
                SHELL.test(id) && (ctx.getModuleInfo(id)?.importers.length ?? 0) > 0 ? 'shell' : null,
              debugName: 'shell',
              priority: 10,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    // In development the API runs on :3000 (npm run serve); the web app proxies to it.
    proxy: Object.fromEntries(
      [
        '/jsonapi',
        '/phpsdk',
        '/api',
        '/user',
        '/session',
        '/idp',
        '/oauth',
        '/admin-api',
        '/sandbox',
        '/secret',
        '/openid-connect',
        '/block-layout',
        '/contact_message',
        '/getting_started',
        // Images uploaded in the console (modules/console-images).
        '/images/console',
      ].map((p) => [p, 'http://localhost:3000']),
    ),
  },
});
