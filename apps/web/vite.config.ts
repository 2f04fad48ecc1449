import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Every built script and style sheet also as `.br` (brotli at its best quality, 11) and `.gz`
 * (level 9), which the server sends as they are (@fastify/static `preCompressed`, plugins/web-app.ts)
 * instead of compressing each answer at the fast quality 4: the home page's JavaScript comes over
 * the wire about 15 % smaller for nothing at run time (decision 018).
 */
function precompress(): Plugin {
  return {
    name: 'portico-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      for (const name of Object.keys(bundle)) {
        if (!/\.(js|css|svg|json)$/.test(name)) continue;
        const file = path.join(dir, name);
        const data = fs.readFileSync(file);
        if (data.length < 1024) continue;
        fs.writeFileSync(
          `${file}.br`,
          brotliCompressSync(data, {
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: 11,
              [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
              [zlib.BROTLI_PARAM_SIZE_HINT]: data.length,
            },
          }),
        );
        fs.writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

/** The modules of the shell chunk (below), when something imports them statically. */
const SHELL =
  /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](query-core|react-query)|zustand|clsx|@mantine[\\/]core[\\/]esm[\\/](core|utils)|@mantine[\\/]hooks)[\\/]|[\\/]src[\\/](lib|config)[\\/]|[\\/]contracts[\\/]src[\\/](messages|format|constants)/;

export default defineConfig({
  plugins: [react(), precompress()],
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
              // A module only ever loaded by import() (lib/markdown.ts and its parser) stays out.
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
      ].map((p) => [p, 'http://localhost:3000']),
    ),
  },
});
