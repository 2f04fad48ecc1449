import type { ProviderRole } from '@portico/contracts/provider-roles';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect } from 'vitest';
import { TestClient } from './http-client.ts';
import { signedInUser } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * The console tests' shared set-up (issue 27): a test portal started once for the file, a signed-in
 * client per provider role (and a developer, and a visitor who is not signed in), and the calls
 * every console test makes: a JSON:API answer's data with its status checked, a DELETE with its
 * If-Match, an item's revisions and audit entries. Each file names its users by `prefix`, so that
 * two files never share an account.
 */

/** Who a console test calls as: a provider role, or a developer with none. */
export type ConsoleActor = ProviderRole | 'developer';

export interface ConsoleFixture {
  /** The portal (started in beforeAll, closed in afterAll). */
  readonly t: TestApp;
  /** The signed-in client of `actor` (created on first use, then the same). */
  as(actor: ConsoleActor): Promise<TestClient>;
  /** A client that is not signed in. */
  visitor(): TestClient;
}

/** The e-mail address of `actor` in a file whose users are named by `prefix`. */
export const consoleEmail = (prefix: string, actor: ConsoleActor) =>
  `${prefix}.${actor.replace(/_/g, '-')}@example.com`;

/**
 * Starts a portal for the test file (vitest's beforeAll/afterAll) and signs users in as asked.
 * `env` is the portal's settings (CONTENT_DIR, say).
 */
export function consoleFixture(prefix: string, env: Record<string, string> = {}): ConsoleFixture {
  let app: TestApp | undefined;
  const clients = new Map<ConsoleActor, Promise<TestClient>>();
  beforeAll(async () => {
    app = await startTestApp(env);
  });
  afterAll(async () => {
    await app?.close();
  });
  const started = () => {
    if (!app) throw new Error('The console fixture is used before its portal started (beforeAll).');
    return app;
  };
  return {
    get t() {
      return started();
    },
    as(actor) {
      let client = clients.get(actor);
      if (!client) {
        const t = started();
        const email = consoleEmail(prefix, actor);
        client =
          actor === 'developer'
            ? signedInUser(t, email)
            : actor === 'administrator'
              ? signedInUser(t, email, { admin: true })
              : signedInUser(t, email, { roles: [actor] });
        clients.set(actor, client);
      }
      return client;
    },
    visitor: () => new TestClient(started().baseUrl),
  };
}

/** The provider roles that are not `allowed` (nor the administrator), and a developer. */
export function othersThan(allowed: Exclude<ProviderRole, 'administrator'>): ConsoleActor[] {
  const roles: ConsoleActor[] = ['content_editor', 'api_manager', 'support_agent', 'go_live_reviewer'];
  return [...roles.filter((r) => r !== allowed), 'developer'];
}

/** A response's JSON (an answer that is not JSON fails with its text). */
export async function json<T>(res: Response): Promise<T> {
  const text = await res.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`not JSON (${res.status}): ${text}`);
  }
}

/** A JSON:API answer's data, its status checked (the body shown when it differs). */
export async function dataOf<T>(res: Response, status = 200): Promise<T> {
  const body = await json<{ data: T }>(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body.data;
}

/** A DELETE as the console sends it: the CSRF token, and the version deleted as If-Match. */
export async function deleteAs(client: TestClient, url: string, version?: number): Promise<Response> {
  client.csrfToken ??= await (await client.get('/session/token')).text();
  return client.request(url, {
    method: 'DELETE',
    headers: {
      'x-csrf-token': client.csrfToken,
      ...(version === undefined ? {} : { 'if-match': `"${version}"` }),
    },
  });
}

/** The versions `content_revisions` holds of an item of `kind`, oldest first. */
export async function storedRevisions(t: TestApp, kind: string, itemId: number): Promise<number[]> {
  const { rows } = await sql<{ version: number }>`select version from content_revisions
    where kind = ${kind} and item_id = ${itemId} order by version`.execute(t.app.db);
  return rows.map((r) => r.version);
}

/** The audit actions of a target, oldest first. */
export async function auditActions(t: TestApp, targetType: string, targetId: string): Promise<string[]> {
  const rows = await t.app.db
    .selectFrom('audit_log')
    .select('action')
    .where('target_type', '=', targetType)
    .where('target_id', '=', targetId)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.action);
}
