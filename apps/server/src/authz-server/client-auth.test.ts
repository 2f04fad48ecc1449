import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../lib/self-signed-certificate.ts';
import { ClientAuthInputError, dnMatches, parseClientAuthentication, parseJwks } from './client-auth.ts';

const titles = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ClientAuthInputError) return err.problems.map((p) => p.title);
    throw err;
  }
  throw new Error('no error');
};

describe('client authentication input (decision 049)', () => {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });

  it('accepts public keys and names every problem of a JWKS with its pointer', () => {
    expect(parseJwks(JSON.stringify({ keys: [{ ...jwk, kid: 'a' }] }), false)?.keys).toHaveLength(1);
    expect(
      titles(() =>
        parseJwks(
          {
            keys: [
              { ...jwk, kid: 'a', use: 'enc' },
              { ...jwk, kid: 'a' },
              { kty: 'RSA', n: 'AQAB', e: 'AQAB' },
              'x',
            ],
          },
          false,
        ),
      ),
    ).toEqual([
      'JWKS /keys/0/use: must be "sig" (or left out): the keys sign client assertions',
      'JWKS /keys/1/kid: "a" is used by another key',
      'JWKS /keys/2/n: an RSA key needs at least 2048 bits; this one has 17',
      'JWKS /keys/3: must be a JSON object (a JWK)',
    ]);
    expect(titles(() => parseJwks('{"keys": [{"kty": "PGP"}]}', false))).toEqual([
      'JWKS /keys/0/kty: "PGP" is not a key type for signatures; use RSA, EC or OKP',
    ]);
    expect(titles(() => parseJwks('{"keys":', false))[0]).toMatch(/^The JWKS is not valid JSON \(/);
  });

  it("checks that an x5c certificate holds the JWK's key", async () => {
    const cert = await selfSignedCertificate({ subject: [['CN', 'tpp']] });
    const der = cert.cert.replace(/-----[^-]+-----|\s/g, '');
    expect(titles(() => parseJwks({ keys: [{ ...jwk, x5c: [der] }] }, true))).toEqual([
      "JWKS /keys/0/x5c/0: the certificate's key is not the key of this JWK",
    ]);
    const own = cert.privateKey.export({ format: 'jwk' });
    const { d: _private, ...pub } = own;
    expect(parseJwks({ keys: [{ ...pub, x5c: [der] }] }, true)?.keys).toHaveLength(1);
  });

  it('wants https JWKS URLs (http on loopback outside production) and exactly one key source', () => {
    const keys = { method: 'private_key_jwt', jwksUri: 'http://localhost:4000/jwks' };
    expect(parseClientAuthentication(keys, 'development').jwksUri).toBe('http://localhost:4000/jwks');
    expect(titles(() => parseClientAuthentication(keys, 'production'))).toEqual([
      'The JWKS URL must be https',
    ]);
    expect(
      titles(() =>
        parseClientAuthentication({ ...keys, jwks: JSON.stringify({ keys: [jwk] }) }, 'development'),
      ),
    ).toEqual(['Give either the JWKS or the JWKS URL, not both']);
    expect(titles(() => parseClientAuthentication({ method: 'basic' }, 'development'))[0]).toMatch(
      /^The client authentication method must be one of client_secret, private_key_jwt/,
    );
  });

  it('compares subject DNs attribute by attribute, in RFC 4514 or OpenSSL order', () => {
    expect(dnMatches('C=NL\nO=Example TPP\nCN=tpp.example', 'CN=tpp.example, O=Example TPP, C=NL')).toBe(
      true,
    );
    expect(dnMatches('cn=a,O=B', 'CN=a,O=B')).toBe(true);
    expect(dnMatches('CN=a,O=B', 'CN=a')).toBe(false);
    expect(dnMatches('CN=a\\,b', 'CN=a,b')).toBe(false);
  });
});
