import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Db } from '../db/client.ts';
import type { SecretBox } from '../lib/secret-box.ts';

/**
 * Signing keys of an issuer: generated once, stored encrypted in the settings table, and shared
 * by every instance (all of them must sign and verify with the same keys).
 */
export async function loadOrCreateSigningKeys(db: Db, box: SecretBox, issuerTag: string): Promise<JWK[]> {
  const key = `oidc-signing-keys:${issuerTag}`;
  const existing = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  if (existing) {
    const sealed = (existing.value as { sealed: string }).sealed;
    return JSON.parse(box.decrypt(sealed)) as JWK[];
  }
  const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const jwk = {
    ...(await exportJWK(privateKey)),
    alg: 'RS256',
    use: 'sig',
    kid: `${issuerTag}-${Date.now().toString(36)}`,
  };
  const keys = [jwk];
  // Two instances starting together: the first insert wins and both use its keys.
  await db
    .insertInto('settings')
    .values({ key, value: JSON.stringify({ sealed: box.encrypt(JSON.stringify(keys)) }) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const stored = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  return JSON.parse(box.decrypt((stored.value as { sealed: string }).sealed)) as JWK[];
}
