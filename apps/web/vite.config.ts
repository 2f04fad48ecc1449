import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: true,
    chunkSizeWarningLimit: 600,
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
