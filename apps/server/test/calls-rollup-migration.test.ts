import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { expect, test } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { migrateTo } from '../src/db/migrate.ts';
import { createPostgresDatabase, testDbKind } from './test-app.ts';

test('migration 0279 fills the calls per day, API and application from the calls recorded before it', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-0279-'));
  const postgres = testDbKind() === 'postgres' ? await createPostgresDatabase() : undefined;
  const handle = await openDatabase({ dataDir, databaseUrl: postgres?.url });
  try {
    await migrateTo(handle.db, '0275-api-drafts');
    const app = 'a0c1e2f3-0000-4000-8000-000000000001';
    const insert = (when: string, api: string, uuid: string | null, status: number) =>
      sql`insert into api_calls (occurred_at, application_uuid, client_id, environment, api_alias, endpoint, method, status, duration_ms)
        values (${when}::timestamptz, ${uuid}::uuid, ${uuid ?? 'nobody'}, 'DEVELOPMENT', ${api}, 'GET /x', 'GET', ${status}, 3)`.execute(
        handle.db,
      );
    await insert('2025-03-04T00:00:00Z', 'accounts', app, 200);
    // 23:30 in UTC is still 4 March whatever the server's time zone.
    await insert('2025-03-04T23:30:00Z', 'accounts', app, 503);
    await insert('2025-03-04T10:00:00Z', 'accounts', null, 401);
    await insert('2025-03-04T11:00:00Z', 'accounts', null, 401);
    await insert('2025-03-05T00:00:00Z', 'payments', app, 201);

    expect(await migrateTo(handle.db, '0279-api-calls-per-api-day')).toContain('0279-api-calls-per-api-day');
    const rows = await sql<{
      day: string;
      api_alias: string;
      application_uuid: string | null;
      calls: number;
      errors: number;
    }>`
      select to_char(day, 'YYYY-MM-DD') as day, api_alias, application_uuid, calls, errors
      from api_calls_per_api_day order by 1, 2, 3 nulls last`.execute(handle.db);
    expect(rows.rows).toEqual([
      { day: '2025-03-04', api_alias: 'accounts', application_uuid: app, calls: 2, errors: 1 },
      { day: '2025-03-04', api_alias: 'accounts', application_uuid: null, calls: 2, errors: 2 },
      { day: '2025-03-05', api_alias: 'payments', application_uuid: app, calls: 1, errors: 0 },
    ]);
    // Calls without an application are one row per day and API.
    await expect(
      sql`insert into api_calls_per_api_day (day, api_alias, application_uuid, calls, errors)
        values ('2025-03-04', 'accounts', null, 1, 0)`.execute(handle.db),
    ).rejects.toThrow(/api_calls_per_api_day_key/);
  } finally {
    await handle.close();
    await postgres?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);
