import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Encryption of secrets at rest (client secrets, signing keys) with AES-256-GCM under a key derived
 * from SECRET_KEY. Without SECRET_KEY a random key is generated once into DATA_DIR/secret.key
 * (mode 0600); several instances on PostgreSQL must share one SECRET_KEY.
 */
export interface SecretBox {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
  /** A stable keyed hash, e.g. to derive per-purpose secrets. */
  derive(purpose: string): string;
}

/** A stored secret does not open with this key: another SECRET_KEY (or secret.key) sealed it. */
export class SecretKeyMismatchError extends Error {
  constructor(options: { cause: unknown }) {
    super(
      'A stored secret cannot be decrypted with this SECRET_KEY: it was sealed with another key. ' +
        'Instances on one database must share one SECRET_KEY; a lost key cannot be recovered.',
      options,
    );
    this.name = 'SecretKeyMismatchError';
  }
}

export function loadSecretKey(secretKey: string | undefined, dataDir: string): string {
  if (secretKey) return secretKey;
  const file = path.join(dataDir, 'secret.key');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const generated = randomBytes(32).toString('base64url');
  // 'wx' so that two first starts cannot write two different keys.
  try {
    fs.writeFileSync(file, generated, { mode: 0o600, flag: 'wx' });
    return generated;
  } catch {
    return fs.readFileSync(file, 'utf8').trim();
  }
}

export function createSecretBox(secretKey: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', secretKey, 'portico', 'secret-box-v1', 32));
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [
        'v1',
        iv.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
        body.toString('base64url'),
      ].join('.');
    },
    decrypt(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      try {
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch (err) {
        // GCM's "unable to authenticate data": sealed under another key (or altered).
        throw new SecretKeyMismatchError({ cause: err });
      }
    },
    derive(purpose) {
      return createHmac('sha256', key).update(purpose).digest('base64url');
    },
  };
}
