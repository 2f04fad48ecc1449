import { defineConfig } from 'vitest/config';

/**
 * Unit tests everywhere, and the server's integration tests twice: on embedded PGlite, and on
 * PostgreSQL when TEST_DATABASE_URL is set (CI sets it).
 */
const integration = ['apps/server/test/**/*.test.ts'];
const postgres = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
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
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
