import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { expect } from 'vitest';
import type { TestClient } from './http-client.ts';
import type { TestApp } from './test-app.ts';

/** Asks the portal for a captcha challenge and solves it as the widget would: the payload to send. */
export async function solvedCaptcha(client: TestClient): Promise<string> {
  const res = await client.get('/api/captcha/challenge');
  if (res.status !== 200) throw new Error(`challenge: ${res.status}`);
  const challenge = (await res.json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the challenge could not be solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

export function contactBody(overrides: Record<string, unknown> = {}) {
  return {
    contact_form: 'feedback',
    name: 'Ada Lovelace',
    mail: 'ada@example.com',
    subject: 'Sandbox access',
    message: 'How do I get access to the payments sandbox?',
    ...overrides,
  };
}

/** Uploads a ticket attachment (its text is `log of <name>`) as the create call will name it. */
export async function uploadTicketFile(client: TestClient, name: string): Promise<{ uuid: string }> {
  const res = await client.request('/api/support_ticket/file', {
    method: 'POST',
    headers: {
      'content-type': 'application/octet-stream',
      'content-disposition': `file; filename="${name}"`,
      'x-csrf-token': client.csrfToken!,
    },
    body: `log of ${name}`,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { uuid: string };
}

/** Whether the portal's storage still holds the file under `key`. */
export async function isStored(t: TestApp, key: string): Promise<boolean> {
  const stream = await t.app.storage.get(key);
  stream?.destroy();
  return stream !== undefined;
}
