/**
 * DPoP proofs (RFC 9449) for the try-out console, loaded only when an application uses DPoP-bound
 * tokens (issue 28). The key pair is made with WebCrypto (ES256) with a private key that cannot be
 * exported, and kept in IndexedDB so that a token bound to it still works after a reload.
 */

const DB_NAME = 'portico-tryout';
const STORE = 'keys';
const KEY_ID = 'dpop';

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB is not available'));
  });
}

function run<T>(
  db: IDBDatabase,
  mode: IDBTransactionMode,
  act: (store: IDBObjectStore) => IDBRequest,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = act(db.transaction(STORE, mode).objectStore(STORE));
    request.onsuccess = () => resolve(request.result as T);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

let pending: Promise<CryptoKeyPair> | null = null;

/** The console's DPoP key pair: the stored one, or a new one (private key not extractable). */
export function dpopKeyPair(): Promise<CryptoKeyPair> {
  pending ??= (async () => {
    let db: IDBDatabase | null;
    try {
      db = await openDb();
      const stored = await run<CryptoKeyPair | undefined>(db, 'readonly', (s) => s.get(KEY_ID));
      if (stored?.privateKey && stored.publicKey) return stored;
    } catch {
      // No IndexedDB (private mode): the key lives as long as the page.
      db = null;
    }
    const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
      'verify',
    ]);
    if (db) await run(db, 'readwrite', (s) => s.put(pair, KEY_ID)).catch(() => undefined);
    return pair;
  })();
  pending.catch(() => {
    pending = null;
  });
  return pending;
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const encode = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)));

/**
 * A proof for one request: `htm` and `htu` (without query and fragment), `ath` when a token goes
 * with it. WebCrypto's ECDSA signature (r || s) is the JWS form of ES256.
 */
export async function dpopProof(method: string, url: string, accessToken?: string): Promise<string> {
  const { privateKey, publicKey } = await dpopKeyPair();
  const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', publicKey);
  const htu = new URL(url, window.location.href);
  htu.search = '';
  htu.hash = '';
  const payload: Record<string, unknown> = {
    jti: crypto.randomUUID(),
    htm: method.toUpperCase(),
    htu: htu.href,
    iat: Math.floor(Date.now() / 1000),
  };
  if (accessToken) {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken));
    payload.ath = base64url(new Uint8Array(digest));
  }
  const input = `${encode({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty, crv, x, y } })}.${encode(payload)}`;
  const signature = await crypto.subtle.sign(
    { name: 'ECDSA', hash: 'SHA-256' },
    privateKey,
    new TextEncoder().encode(input),
  );
  return `${input}.${base64url(new Uint8Array(signature))}`;
}
