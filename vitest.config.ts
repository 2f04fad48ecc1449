import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Unit tests everywhere, and the server's integration tests twice: on embedded PGlite, and on
 * PostgreSQL when TEST_DATABASE_URL is set (CI sets it).
 */
const integration = ['apps/server/test/**/*.test.ts'];
const postgres = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    // Two test files at once at least. Vitest's default is one fewer than the cores: one file at a
    // time on a two-core machine. Measured there (this project's CI machine, nothing else running,
    // the whole run on PGlite and PostgreSQL, 2026-12-07): 1,510 s one at a time, 1,025 s two at a
    // time, every test passing in both. The tests that measure the event loop count the main
    // thread's own CPU time (test/event-loop-watch.ts), which another file running beside does not
    // add to.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['apps/**/src/**/*.test.ts', 'packages/**/src/**/*.test.ts', 'apps/web/src/**/*.test.tsx'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server-pglite',
          include: integration,
          // What a PostgreSQL server does to its clients has no embedded counterpart, and an
          // embedded database belongs to one process, so several instances need PostgreSQL.
          exclude: [
            'apps/server/test/postgres-connections.test.ts',
            'apps/server/test/several-instances.test.ts',
            'apps/server/test/instances-together.test.ts',
          ],
          env: { PORTICO_TEST_DB: 'pglite' },
          // One migrated database that every test portal copies (pglite-template.ts).
          globalSetup: ['apps/server/test/pglite-template.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(postgres
        ? [
            {
              test: {
                name: 'server-postgres',
                include: integration,
                // The DATA_DIR lock and crash recovery concern the embedded database only.
                exclude: ['apps/server/test/data-dir.test.ts'],
                env: { PORTICO_TEST_DB: 'postgres' },
                // One migrated database that every test portal copies (postgres-template.ts).
                globalSetup: ['apps/server/test/postgres-template.ts'],
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
