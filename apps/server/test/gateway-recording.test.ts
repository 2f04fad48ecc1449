import { importJWK, SignJWT } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/client.ts';
import { WRITE_ROWS } from '../src/gateway/recorder.ts';
import { loadOrCreateSigningKeys } from '../src/oidc/keys.ts';
import { startTestApp, startTwoInstances, testDbKind, type TestApp, type TwoInstances } from './test-app.ts';
import { clientCredentialsToken, insertDocument, sandbox } from './applications-fixtures.ts';

/**
 * Decision 055: the sandbox keeps verified tokens and the alias's current document in memory and
 * writes its call records in batches. A graceful stop loses no record, and whatever withdraws a
 * valid token's access still applies to the next call, on this instance and on the others.
 */
const API = {
  openapi: '3.1.0',
  info: { title: 'Ledger API', version: '1.0.0' },
  security: [{ ledgerOAuth: ['ledger:read'] }],
  components: {
    securitySchemes: {
      ledgerOAuth: {
        type: 'oauth2',
        flows: {
          clientCredentials: { tokenUrl: 'https://bank.example/token', scopes: { 'ledger:read': 'Read' } },
        },
      },
    },
  },
  paths: {
    '/entries': {
      get: {
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 50 } }],
        responses: {
          '200': {
            description: 'Entries',
            content: { 'application/json': { example: { data: [{ id: 'e-1', amount: 12.5 }] } } },
          },
        },
      },
    },
  },
};

const tokenFor = (t: TestApp) => clientCredentialsToken(t, ['ledger:read']);
const entries = (t: TestApp, token: string) => sandbox(t, 'ledger/entries?limit=5', token);

async function countRecords(db: Db, clientId: string) {
  const row = (
    await sql<{ calls: string; daily: string; per_api: string }>`select
      (select count(*) from api_calls where client_id = ${clientId}) as calls,
      (select coalesce(sum(calls), 0) from api_call_daily where client_id = ${clientId}) as daily,
      (select coalesce(sum(p.calls), 0) from api_calls_per_api_day p
        where p.api_alias = 'ledger' and p.application_uuid is null) as per_api`.execute(db)
  ).rows[0]!;
  return { calls: Number(row.calls), daily: Number(row.daily), perApi: Number(row.per_api) };
}

describe('sandbox call records (decision 055)', () => {
  it('a graceful close writes every answered call, those queued during a write included', async () => {
    const t = await startTestApp();
    let closed = false;
    try {
      await insertDocument(t.app.db, 'ledger', API, 'h1');
      const { clientId, token } = await tokenFor(t);
      // Several transactions' worth, 25 at a time, and the close right after the last answer:
      // records are queued, and a write may be under way, when the app is asked to stop.
      const total = WRITE_ROWS * 2 + 37;
      let next = 0;
      let answered = 0;
      await Promise.all(
        Array.from({ length: 25 }, async () => {
          while (next < total) {
            next++;
            const { status } = await entries(t, token);
            expect(status).toBe(200);
            answered++;
          }
        }),
      );
      expect(answered).toBe(total);
      await t.app.close();
      closed = true;
      const handle = await openDatabase({ databaseUrl: t.config.databaseUrl, dataDir: t.config.dataDir });
      try {
        expect(await countRecords(handle.db, clientId)).toEqual({
          calls: total,
          daily: total,
          perApi: total,
        });
      } finally {
        await handle.close();
      }
    } finally {
      // The app is closed already (closing it twice is harmless); this removes its database.
      if (!closed) await t.app.close();
      await t.close();
    }
  });

  it('writes queued calls by itself, without a flush or a close', async () => {
    const t = await startTestApp();
    try {
      await insertDocument(t.app.db, 'ledger', API, 'h1');
      const { clientId, token } = await tokenFor(t);
      for (let i = 0; i < 3; i++) expect((await entries(t, token)).status).toBe(200);
      // Written within the flush interval; polled, since a busy machine may take longer.
      await expect
        .poll(() => countRecords(t.app.db, clientId), { timeout: 20_000, interval: 100 })
        .toEqual({ calls: 3, daily: 3, perApi: 3 });
    } finally {
      await t.close();
    }
  });
});

describe('recording leaves the change counters alone (decision 067)', () => {
  it('no trigger bumps a change counter on the tables the records go to', async () => {
    const t = await startTestApp();
    try {
      const { rows } = await sql<{ definition: string }>`select pg_get_triggerdef(oid) as definition
        from pg_trigger where not tgisinternal
        and tgrelid in ('api_calls'::regclass, 'api_call_daily'::regclass, 'api_calls_per_api_day'::regclass)`.execute(
        t.app.db,
      );
      expect(rows.filter((r) => r.definition.includes('portico_bump_data_version'))).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it.skipIf(testDbKind() !== 'pglite')(
    'on the embedded database, calls after a batch is written do not read the counters again',
    async () => {
      const t = await startTestApp();
      try {
        await insertDocument(t.app.db, 'ledger', API, 'h1');
        const { token } = await tokenFor(t);
        expect((await entries(t, token)).status).toBe(200);
        const reads = t.app.dataVersions.reads();
        for (let round = 0; round < 3; round++) {
          await Promise.all(
            Array.from({ length: 20 }, async () => expect((await entries(t, token)).status).toBe(200)),
          );
          await t.app.flushCallRecorder();
        }
        expect((await entries(t, token)).status).toBe(200);
        // The counters read before the first batch still hold: no call went to the database.
        expect(t.app.dataVersions.reads()).toBe(reads);
      } finally {
        await t.close();
      }
    },
  );
});

describe('sandbox token cache and revocation (decision 055)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await insertDocument(t.app.db, 'ledger', API, 'h1');
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses a token it has verified before at once when its scope is removed or its client deleted', async () => {
    const scoped = await tokenFor(t);
    expect((await entries(t, scoped.token)).status).toBe(200);
    expect((await entries(t, scoped.token)).status).toBe(200);
    // No cache is cleared by hand: the change counters tell the instance.
    await t.app.db.deleteFrom('oauth_client_scopes').where('client_id', '=', scoped.clientId).execute();
    const unscoped = await entries(t, scoped.token);
    expect(unscoped.status).toBe(403);
    expect(unscoped.body).toMatchObject({ error: 'insufficient_scope' });

    const deleted = await tokenFor(t);
    expect((await entries(t, deleted.token)).status).toBe(200);
    await t.app.oauthClients.deleteClient(deleted.clientId);
    const gone = await entries(t, deleted.token);
    expect(gone.status).toBe(401);
    expect(gone.body).toMatchObject({ error: 'invalid_token' });
  });

  it('still refuses a token it verified before once the token has expired', async () => {
    const { clientId } = await tokenFor(t);
    const [key] = await loadOrCreateSigningKeys(t.app.db, t.app.secretBox, 'oauth');
    const exp = Math.floor(Date.now() / 1000) + 2;
    const token = await new SignJWT({ client_id: clientId, scope: 'ledger:read' })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: key!.kid! })
      .setIssuer(t.app.oauthServer.issuer)
      .setAudience(t.app.oauthServer.resource)
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(await importJWK(key!, 'RS256'));
    const first = await entries(t, token);
    // A busy machine may have taken the two seconds already; then the first call is refused too.
    if (Date.now() < (exp - 1) * 1000) expect(first.status).toBe(200);
    while (Date.now() < exp * 1000) await new Promise((r) => setTimeout(r, 100));
    const expired = await entries(t, token);
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({
      error: 'invalid_token',
      error_description: 'the access token has expired',
    });
  });

  it('serves a re-imported document from the next call on', async () => {
    const { token } = await tokenFor(t);
    expect((await entries(t, token)).body).toEqual({ data: [{ id: 'e-1', amount: 12.5 }] });
    const changed = structuredClone(API);
    changed.paths['/entries'].get.responses['200'].content['application/json'].example = {
      data: [{ id: 'e-2', amount: 3 }],
    };
    await insertDocument(t.app.db, 'ledger', changed, 'h2');
    expect((await entries(t, token)).body).toEqual({ data: [{ id: 'e-2', amount: 3 }] });
    await insertDocument(t.app.db, 'ledger', API, 'h1');
    expect((await entries(t, token)).body).toEqual({ data: [{ id: 'e-1', amount: 12.5 }] });
  });
});

// PGlite is one process's own database: several instances need PostgreSQL.
describe.skipIf(testDbKind() !== 'postgres')('sandbox revocation across instances (decision 055)', () => {
  let two: TwoInstances;
  beforeAll(async () => {
    // Behind one address: the same issuer and audience for the tokens of both.
    two = await startTwoInstances({ PUBLIC_URL: 'http://portal.test' });
    await insertDocument(two.a.app.db, 'ledger', API, 'h1');
  });
  afterAll(async () => {
    await two?.close();
  });

  it('a change committed through one instance applies to the next call on the other', async () => {
    const { clientId, token } = await tokenFor(two.a);
    // B verifies the token and keeps it, with the client's access and the document.
    expect((await entries(two.b, token)).status).toBe(200);
    expect((await entries(two.b, token)).status).toBe(200);
    const changed = structuredClone(API);
    changed.paths['/entries'].get.responses['200'].content['application/json'].example = {
      data: [{ id: 'e-3', amount: 1 }],
    };
    await insertDocument(two.a.app.db, 'ledger', changed, 'h3');
    expect((await entries(two.b, token)).body).toEqual({ data: [{ id: 'e-3', amount: 1 }] });
    await two.a.app.oauthClients.deleteClient(clientId);
    expect((await entries(two.b, token)).status).toBe(401);
    // B's records of the calls it answered are B's to write: they are there after its flush.
    await two.b.app.flushCallRecorder();
    expect((await countRecords(two.a.app.db, clientId)).calls).toBe(3);
  });
});
