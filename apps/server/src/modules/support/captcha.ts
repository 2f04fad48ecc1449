import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Db } from '../../db/client.ts';
import { supportDb } from './tables.ts';

/**
 * The contact form's self-hosted proof of work (ALTCHA, no third-party service). A challenge is
 * signed with a secret derived from SECRET_KEY, so every instance can check any instance's
 * challenge; a solved challenge's nonce is recorded in `captcha_used` until it expires, in one
 * insert that only one request can win, so a payload is good for one message on any instance.
 */
export const CAPTCHA_ALGORITHM = 'PBKDF2/SHA-256';
/** How long a challenge may take from the widget asking for it to the form being sent. */
export const CAPTCHA_TTL_MS = 10 * 60_000;

export interface CaptchaSecrets {
  signature: string;
  key: string;
}

export async function newChallenge(
  secrets: CaptchaSecrets,
  options: { cost: number; counterMax: number },
): Promise<Challenge> {
  return createChallenge({
    algorithm: CAPTCHA_ALGORITHM,
    cost: options.cost,
    // Deterministic mode: the server knows the answer's key, so checking it is one HMAC.
    counter: randomInt(Math.floor(options.counterMax / 2), options.counterMax),
    deriveKey,
    expiresAt: new Date(Date.now() + CAPTCHA_TTL_MS),
    hmacSignatureSecret: secrets.signature,
    hmacKeySignatureSecret: secrets.key,
  });
}

export type CaptchaOutcome = 'ok' | 'invalid' | 'used';

/** Checks the widget's payload (base64 JSON of { challenge, solution }) and spends it. */
export async function spendCaptcha(
  db: Db,
  secrets: CaptchaSecrets,
  payload: string,
): Promise<CaptchaOutcome> {
  const parsed = parsePayload(payload);
  if (!parsed) return 'invalid';
  let result;
  try {
    result = await verifySolution({
      challenge: parsed.challenge,
      solution: parsed.solution,
      deriveKey,
      hmacSignatureSecret: secrets.signature,
      hmacKeySignatureSecret: secrets.key,
    });
  } catch {
    return 'invalid';
  }
  if (!result.verified) return 'invalid';
  const { nonce, expiresAt } = parsed.challenge.parameters;
  const sdb = supportDb(db);
  const now = new Date();
  // Spent challenges are only needed until they expire.
  await sdb.deleteFrom('captcha_used').where('expires_at', '<', now).execute();
  const inserted = await sdb
    .insertInto('captcha_used')
    .values({
      nonce,
      expires_at: expiresAt ? new Date(expiresAt * 1000) : new Date(now.getTime() + CAPTCHA_TTL_MS),
    })
    .onConflict((oc) => oc.column('nonce').doNothing())
    .returning('nonce')
    .executeTakeFirst();
  return inserted ? 'ok' : 'used';
}

function parsePayload(payload: string): { challenge: Challenge; solution: Solution } | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
  } catch {
    return null;
  }
  if (!isRecord(value) || !isRecord(value.challenge) || !isRecord(value.solution)) return null;
  const challenge = value.challenge;
  const solution = value.solution;
  const p = challenge.parameters;
  if (!isRecord(p) || typeof p.nonce !== 'string' || typeof p.algorithm !== 'string') return null;
  if (p.algorithm !== CAPTCHA_ALGORITHM) return null;
  if (p.expiresAt !== undefined && typeof p.expiresAt !== 'number') return null;
  if (typeof solution.counter !== 'number' || typeof solution.derivedKey !== 'string') return null;
  if (typeof challenge.signature !== 'string') return null;
  // The shapes were checked field by field above.
  return { challenge: challenge as unknown as Challenge, solution: solution as unknown as Solution };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
