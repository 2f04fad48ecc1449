import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The modules of the shell chunk (below), when something imports them statically. */
const SHELL =
  /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](query-core|react-query)|zustand|clsx|@mantine[\\/]core[\\/]esm[\\/](core|utils)|@mantine[\\/]hooks)[\\/]|[\\/]src[\\/](lib|config)[\\/]|[\\/]contracts[\\/]src[\\/](messages|format|constants)/;

export default defineConfig({
  plugins: [react()],
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
