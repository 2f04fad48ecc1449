import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { TestClient } from './http-client.ts';

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
