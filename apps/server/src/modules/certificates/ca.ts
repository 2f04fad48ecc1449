import type { Db } from '../../db/client.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { CA_ALGORITHM, createCa, x509, type SandboxCa } from './x509.ts';

/**
 * The sandbox CA (issue 28): generated once, its private key sealed in `settings` like the
 * authorization servers' signing keys (`sandbox-ca`). It signs the organizations' sandbox test
 * certificates only; its certificate is public (GET /api/sandbox/ca.pem) and trusted nowhere but
 * the sandbox.
 */
export const SANDBOX_CA_SETTING = 'sandbox-ca';
export const SANDBOX_CA_NAME =
  'CN=Portico Sandbox Test CA (not trusted outside the sandbox), O=Portico sandbox, C=XX';

interface StoredCa {
  /** PKCS #8 of the private key, base64. */
  key: string;
  /** The CA certificate, PEM. */
  certificate: string;
}

async function read(db: Db, box: SecretBox): Promise<StoredCa | undefined> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', SANDBOX_CA_SETTING)
    .executeTakeFirst();
  if (!row) return undefined;
  return JSON.parse(box.decrypt((row.value as { sealed: string }).sealed)) as StoredCa;
}

async function load(stored: StoredCa): Promise<SandboxCa> {
  const privateKey = await crypto.subtle.importKey(
    'pkcs8',
    Buffer.from(stored.key, 'base64'),
    CA_ALGORITHM,
    false,
    ['sign'],
  );
  return { certificate: new x509.X509Certificate(stored.certificate), privateKey };
}

/** One loaded CA per database handle and process: it never changes once made. */
const cache = new WeakMap<object, Promise<SandboxCa>>();

async function loadOrCreate(db: Db, box: SecretBox): Promise<SandboxCa> {
  const existing = await read(db, box);
  if (existing) return load(existing);
  const ca = await createCa(SANDBOX_CA_NAME);
  const pkcs8 = await crypto.subtle.exportKey('pkcs8', ca.privateKey);
  const stored: StoredCa = {
    key: Buffer.from(pkcs8).toString('base64'),
    certificate: ca.certificate.toString('pem'),
  };
  // Two instances starting together: the first insert wins and both use its CA.
  await db
    .insertInto('settings')
    .values({
      key: SANDBOX_CA_SETTING,
      value: JSON.stringify({ sealed: box.encrypt(JSON.stringify(stored)) }),
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return load((await read(db, box))!);
}

/** The sandbox CA, made on first use (the plugin's start). */
export function sandboxCa(db: Db, box: SecretBox): Promise<SandboxCa> {
  let ca = cache.get(db);
  if (!ca) {
    ca = loadOrCreate(db, box);
    // A failure (database down) is not remembered: the next call tries again.
    ca.catch(() => cache.delete(db));
    cache.set(db, ca);
  }
  return ca;
}
