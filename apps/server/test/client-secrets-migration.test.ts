import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { expect, test } from 'vitest';
import { clientSecretsRepo } from '../src/authz-server/secret-rotation.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrateTo } from '../src/db/migrate.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createPostgresDatabase, testDbKind } from './test-app.ts';

test('migration 0300 moves every existing client secret over as the current secret', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-0300-'));
  const postgres = testDbKind() === 'postgres' ? await createPostgresDatabase() : undefined;
  const handle = await openDatabase({ dataDir, databaseUrl: postgres?.url });
  const db = handle.db;
  const box = createSecretBox('migration-test-key');
  try {
    await migrateTo(db, '0294-plans-version');
    const sealed = box.encrypt('the-old-secret');
    await sql`insert into oauth_clients (client_id, secret, environment, grant_types, updated_at) values
      ('confidential', ${sealed}, 'DEVELOPMENT', '{client_credentials}', '2026-01-02T03:04:05Z'),
      ('public', null, 'DEVELOPMENT', '{authorization_code}', now())`.execute(db);

    expect(await migrateTo(db, '0300-client-secrets')).toContain('0300-client-secrets');
    const rows = await sql<{ client_id: string; secret: string; created: string; expires_at: Date | null }>`
      select client_id, secret, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as created,
        expires_at from oauth_client_secrets order by client_id`.execute(db);
    expect(rows.rows).toEqual([
      { client_id: 'confidential', secret: sealed, created: '2026-01-02T03:04:05', expires_at: null },
    ]);
    const secrets = clientSecretsRepo(db, box);
    expect(await secrets.match('confidential', 'the-old-secret')).toEqual({ state: 'valid' });
    expect((await secrets.list('confidential')).map((s) => s.current)).toEqual([true]);
  } finally {
    await handle.close();
    await postgres?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
