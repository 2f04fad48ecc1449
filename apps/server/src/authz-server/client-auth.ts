import { createHash, createPublicKey, X509Certificate, type JsonWebKeyInput } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { en } from '@portico/contracts/messages';
import { FAPI_CLIENT_AUTH_METHODS } from '@portico/contracts/token-security';
import type { ClientMetadata, Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../config.ts';
import type { CertificateTrust } from './certificate-trust.ts';
import type { Db } from '../db/client.ts';

/**
 * Client authentication at the API authorization server (issue 28, decision 049): how each
 * application's OAuth client proves who it is at the token endpoint, and mutual TLS (RFC 8705).
 *
 * - `client_secret`: client_secret_basic or client_secret_post (the default, as before);
 * - `private_key_jwt`: a client assertion signed with a key of the client's JWKS (pasted, or
 *   fetched by oidc-provider from its `jwks_uri`);
 * - `tls_client_auth`: a client certificate whose subject DN is the registered one;
 * - `self_signed_tls_client_auth`: a client certificate registered in the JWKS (`x5c`).
 *
 * The mTLS methods get certificate-bound access tokens (`cnf.x5t#S256`), which the sandbox
 * gateway refuses without the same certificate (gateway/certificate-binding.ts).
 */
export const CLIENT_AUTH_METHODS = [
  'client_secret',
  'private_key_jwt',
  'tls_client_auth',
  'self_signed_tls_client_auth',
] as const;
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];

export interface ClientAuthentication {
  method: ClientAuthMethod;
  jwks: { keys: Record<string, unknown>[] } | null;
  jwksUri: string | null;
  tlsSubjectDn: string | null;
}

export const DEFAULT_CLIENT_AUTHENTICATION: ClientAuthentication = {
  method: 'client_secret',
  jwks: null,
  jwksUri: null,
  tlsSubjectDn: null,
};

/** One problem with the input, pointing at the field (a JSON pointer of the request) that has it. */
export interface ClientAuthProblem {
  title: string;
  field: 'method' | 'jwks' | 'jwksUri' | 'tlsSubjectDn';
}

export class ClientAuthInputError extends Error {
  override name = 'ClientAuthInputError';
  readonly problems: ClientAuthProblem[];
  constructor(problems: ClientAuthProblem[]) {
    super(problems.map((p) => p.title).join('; '));
    this.problems = problems;
  }
}

/** The raw input: the JWKS as pasted text (or already an object, from API callers). */
export interface ClientAuthInput {
  method?: unknown;
  jwks?: unknown;
  jwksUri?: unknown;
  tlsSubjectDn?: unknown;
}

const MAX_JWKS_CHARS = 64 * 1024;
const MAX_KEYS = 20;
const PUBLIC_KTY = ['RSA', 'EC', 'OKP'];
/** Members of a JWK that only a private (or symmetric) key has. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** The JWKS problem, with the JSON pointer inside the JWKS document where it is. */
function jwksProblem(pointer: string, message: string): ClientAuthProblem {
  return { field: 'jwks', title: `JWKS ${pointer || '/'}: ${message}` };
}

/** Checks a pasted JWKS: JSON, a `keys` array of public RSA, EC or OKP keys (with `x5c` when asked). */
export function parseJwks(raw: unknown, needCertificates: boolean): ClientAuthentication['jwks'] {
  let doc: unknown = raw;
  if (typeof raw === 'string') {
    if (raw.length > MAX_JWKS_CHARS)
      throw new ClientAuthInputError([jwksProblem('', `is longer than ${MAX_JWKS_CHARS} characters`)]);
    try {
      doc = JSON.parse(raw);
    } catch (err) {
      throw new ClientAuthInputError([
        { field: 'jwks', title: `The JWKS is not valid JSON (${(err as Error).message})` },
      ]);
    }
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    throw new ClientAuthInputError([jwksProblem('', 'must be a JSON object with a "keys" array')]);
  const keys = (doc as { keys?: unknown }).keys;
  if (!Array.isArray(keys))
    throw new ClientAuthInputError([jwksProblem('/keys', 'must be an array of keys')]);
  if (!keys.length) throw new ClientAuthInputError([jwksProblem('/keys', 'must contain at least one key')]);
  if (keys.length > MAX_KEYS)
    throw new ClientAuthInputError([jwksProblem('/keys', `may hold at most ${MAX_KEYS} keys`)]);
  const problems: ClientAuthProblem[] = [];
  const kids = new Set<string>();
  keys.forEach((key: unknown, i) => {
    const at = `/keys/${i}`;
    if (!key || typeof key !== 'object' || Array.isArray(key)) {
      problems.push(jwksProblem(at, 'must be a JSON object (a JWK)'));
      return;
    }
    const jwk = key as Record<string, unknown>;
    if (typeof jwk.kty !== 'string') {
      problems.push(jwksProblem(`${at}/kty`, 'is missing; a key type (RSA, EC or OKP) is required'));
      return;
    }
    if (!PUBLIC_KTY.includes(jwk.kty)) {
      problems.push(
        jwksProblem(
          `${at}/kty`,
          jwk.kty === 'oct'
            ? 'symmetric keys ("oct") are not allowed; paste public RSA, EC or OKP keys'
            : `"${jwk.kty}" is not a key type for signatures; use RSA, EC or OKP`,
        ),
      );
      return;
    }
    const secret = PRIVATE_MEMBERS.find((m) => m in jwk);
    if (secret) {
      problems.push(
        jwksProblem(
          `${at}/${secret}`,
          'this is a private key; paste only the public key (remove the private parts) and keep the private key to yourself',
        ),
      );
      return;
    }
    if (jwk.use !== undefined && jwk.use !== 'sig')
      problems.push(jwksProblem(`${at}/use`, 'must be "sig" (or left out): the keys sign client assertions'));
    if (jwk.kid !== undefined) {
      if (typeof jwk.kid !== 'string') problems.push(jwksProblem(`${at}/kid`, 'must be a string'));
      else if (kids.has(jwk.kid))
        problems.push(jwksProblem(`${at}/kid`, `"${jwk.kid}" is used by another key`));
      else kids.add(jwk.kid);
    }
    let publicKey;
    try {
      publicKey = createPublicKey({ key: jwk as unknown as JsonWebKeyInput['key'], format: 'jwk' });
    } catch (err) {
      problems.push(jwksProblem(at, `is not a valid ${jwk.kty} public key (${(err as Error).message})`));
      return;
    }
    const bits = publicKey.asymmetricKeyDetails?.modulusLength;
    if (jwk.kty === 'RSA' && bits !== undefined && bits < 2048) {
      problems.push(jwksProblem(`${at}/n`, `an RSA key needs at least 2048 bits; this one has ${bits}`));
      return;
    }
    if (jwk.x5c !== undefined || needCertificates) {
      if (!Array.isArray(jwk.x5c) || !jwk.x5c.length || typeof jwk.x5c[0] !== 'string') {
        problems.push(
          jwksProblem(
            `${at}/x5c`,
            'must hold the client certificate (base64 DER) for self-signed mutual TLS',
          ),
        );
        return;
      }
      try {
        const cert = new X509Certificate(Buffer.from(jwk.x5c[0], 'base64'));
        if (!cert.publicKey.equals(publicKey))
          problems.push(jwksProblem(`${at}/x5c/0`, "the certificate's key is not the key of this JWK"));
      } catch {
        problems.push(jwksProblem(`${at}/x5c/0`, 'is not a base64-encoded DER certificate'));
      }
    }
  });
  if (problems.length) throw new ClientAuthInputError(problems);
  return { keys: keys as Record<string, unknown>[] };
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A jwks_uri: https; http only on a loopback host outside production. */
export function parseJwksUri(raw: unknown, nodeEnv: Config['nodeEnv']): string {
  const problem = (title: string) => new ClientAuthInputError([{ field: 'jwksUri', title }]);
  if (typeof raw !== 'string' || !raw.trim()) throw problem('The JWKS URL is required');
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw problem(`The JWKS URL '${raw}' is not an absolute URL`);
  }
  if (url.username || url.password) throw problem('The JWKS URL must not contain credentials');
  if (url.hash) throw problem('The JWKS URL must not contain a fragment');
  const localHttp = url.protocol === 'http:' && LOOPBACK.has(url.hostname) && nodeEnv !== 'production';
  if (url.protocol !== 'https:' && !localHttp)
    throw problem(
      nodeEnv === 'production'
        ? 'The JWKS URL must be https'
        : 'The JWKS URL must be https (http only on localhost outside production)',
    );
  return url.href;
}

/** Attribute=value pairs of a distinguished name, RFC 4514 text or Node's one-per-line form. */
export function dnParts(dn: string): string[] | undefined {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < dn.length; i++) {
    const c = dn[i];
    if (c === '\\' && i + 1 < dn.length) {
      current += dn[++i];
      continue;
    }
    if (c === ',' || c === '\n' || c === '+') {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  const out: string[] = [];
  for (const part of parts.map((p) => p.trim()).filter(Boolean)) {
    const eq = part.indexOf('=');
    if (eq <= 0 || eq === part.length - 1) return undefined;
    out.push(`${part.slice(0, eq).trim().toUpperCase()}=${part.slice(eq + 1).trim()}`);
  }
  return out.length ? out.sort() : undefined;
}

/** The same attributes and values, in any order (RFC 4514 lists them last to first). */
export function dnMatches(a: string, b: string): boolean {
  const x = dnParts(a);
  const y = dnParts(b);
  return !!x && !!y && x.length === y.length && x.every((part, i) => part === y[i]);
}

/** RFC 7591 `token_endpoint_auth_method` values a confidential client may register with. */
export const METADATA_AUTH_METHODS = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
  'tls_client_auth',
  'self_signed_tls_client_auth',
] as const;

/**
 * THE check of a client authentication method, shared by the application form, the token
 * security settings and dynamic client registration: the portal's name (`client_secret`, …) or
 * RFC 7591's (`client_secret_basic`, `client_secret_post`: both `client_secret`) becomes the
 * portal's method; a public client's `none` or an unknown name is refused, and with `fapi` a
 * client secret is refused too (FAPI 2.0 wants a signed JWT or mutual TLS). Problems are
 * ClientAuthInputErrors at the field `method`.
 */
export function checkAuthMethod(name: unknown, options: { fapi?: boolean } = {}): ClientAuthMethod {
  const value = name ?? 'client_secret';
  const method = value === 'client_secret_basic' || value === 'client_secret_post' ? 'client_secret' : value;
  if (typeof method !== 'string' || !CLIENT_AUTH_METHODS.includes(method as ClientAuthMethod))
    throw new ClientAuthInputError([
      {
        field: 'method',
        title: `The client authentication method must be one of ${CLIENT_AUTH_METHODS.join(', ')}`,
      },
    ]);
  if (options.fapi && !fapiAllows(method))
    throw new ClientAuthInputError([{ field: 'method', title: en.tokenSecurity.fapiNeedsKeyAuth }]);
  return method as ClientAuthMethod;
}

/** Whether the FAPI 2.0 profile accepts the method (signed JWT or mutual TLS). */
export function fapiAllows(method: string): boolean {
  return (FAPI_CLIENT_AUTH_METHODS as readonly string[]).includes(method);
}

/**
 * The input checked and normalised; every problem is a ClientAuthInputError naming its field.
 * The JWKS of private_key_jwt and self_signed_tls_client_auth may be pasted or given as a URL.
 */
export function parseClientAuthentication(
  input: ClientAuthInput,
  nodeEnv: Config['nodeEnv'],
  options: { fapi?: boolean } = {},
): ClientAuthentication {
  const m = checkAuthMethod(input.method, options);
  const given = (v: unknown) => v !== undefined && v !== null && !(typeof v === 'string' && !v.trim());
  if (m === 'client_secret') return { ...DEFAULT_CLIENT_AUTHENTICATION };
  if (m === 'tls_client_auth') {
    if (!given(input.tlsSubjectDn))
      throw new ClientAuthInputError([
        { field: 'tlsSubjectDn', title: "The certificate's subject DN is required for mutual TLS" },
      ]);
    const dn = String(input.tlsSubjectDn).trim();
    if (typeof input.tlsSubjectDn !== 'string' || dn.length > 1000 || !dnParts(dn))
      throw new ClientAuthInputError([
        {
          field: 'tlsSubjectDn',
          title:
            "The subject DN must be attribute=value pairs separated by commas, e.g. 'CN=tpp.example,O=Example TPP,C=NL'",
        },
      ]);
    return { ...DEFAULT_CLIENT_AUTHENTICATION, method: m, tlsSubjectDn: dn };
  }
  // private_key_jwt or self_signed_tls_client_auth: keys pasted or at a URL, exactly one.
  if (given(input.jwks) && given(input.jwksUri))
    throw new ClientAuthInputError([
      { field: 'jwksUri', title: 'Give either the JWKS or the JWKS URL, not both' },
    ]);
  if (given(input.jwksUri))
    return { ...DEFAULT_CLIENT_AUTHENTICATION, method: m, jwksUri: parseJwksUri(input.jwksUri, nodeEnv) };
  if (!given(input.jwks))
    throw new ClientAuthInputError([
      {
        field: 'jwks',
        title:
          m === 'private_key_jwt'
            ? 'Signed JWT authentication needs the public keys: paste a JWKS or give a JWKS URL'
            : "Self-signed mutual TLS needs the certificate: paste a JWKS with the certificate in 'x5c' or give a JWKS URL",
      },
    ]);
  return {
    ...DEFAULT_CLIENT_AUTHENTICATION,
    method: m,
    jwks: parseJwks(input.jwks, m === 'self_signed_tls_client_auth'),
  };
}

/** The client metadata members (RFC 7591, RFC 8705) that carry each field of the method. */
export const METADATA_MEMBERS: Record<ClientAuthProblem['field'], string> = {
  method: 'token_endpoint_auth_method',
  jwks: 'jwks',
  jwksUri: 'jwks_uri',
  tlsSubjectDn: 'tls_client_auth_subject_dn',
};

/**
 * The method of registered client metadata (dynamic client registration), through the same
 * checks as the form's; a problem's text starts with the metadata member it is about.
 */
export function clientAuthFromMetadata(
  metadata: Record<string, unknown>,
  nodeEnv: Config['nodeEnv'],
  options: { fapi?: boolean } = {},
): ClientAuthentication {
  try {
    return parseClientAuthentication(
      {
        method: metadata.token_endpoint_auth_method ?? 'client_secret_basic',
        jwks: metadata.jwks,
        jwksUri: metadata.jwks_uri,
        tlsSubjectDn: metadata.tls_client_auth_subject_dn,
      },
      nodeEnv,
      options,
    );
  } catch (err) {
    if (!(err instanceof ClientAuthInputError)) throw err;
    throw new ClientAuthInputError(
      err.problems.map((p) => ({
        field: p.field,
        title:
          p.field === 'method' && p.title !== en.tokenSecurity.fapiNeedsKeyAuth
            ? `token_endpoint_auth_method must be one of ${METADATA_AUTH_METHODS.join(', ')}`
            : `${METADATA_MEMBERS[p.field]}: ${p.title}`,
      })),
    );
  }
}

/** The stored method of a client (the columns of migration 0302). */
export async function getClientAuthentication(db: Db, clientId: string): Promise<ClientAuthentication> {
  const row = await db
    .selectFrom('oauth_clients')
    .select(['auth_method', 'jwks', 'jwks_uri', 'tls_subject_dn'])
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return row ? fromRow(row) : { ...DEFAULT_CLIENT_AUTHENTICATION };
}

export function fromRow(row: {
  auth_method: ClientAuthMethod;
  jwks: ClientAuthentication['jwks'];
  jwks_uri: string | null;
  tls_subject_dn: string | null;
}): ClientAuthentication {
  return {
    method: row.auth_method,
    jwks: typeof row.jwks === 'string' ? (JSON.parse(row.jwks) as ClientAuthentication['jwks']) : row.jwks,
    jwksUri: row.jwks_uri,
    tlsSubjectDn: row.tls_subject_dn,
  };
}

/** Whether two settings are the same (the method, its keys, their URL and the subject). */
export function sameClientAuthentication(a: ClientAuthentication, b: ClientAuthentication): boolean {
  return JSON.stringify(clientAuthAudit(a)) === JSON.stringify(clientAuthAudit(b));
}

/** What the audit log keeps of a setting: the method, the keys' ids and thumbprint-free summary. */
export function clientAuthAudit(auth: ClientAuthentication): Record<string, unknown> {
  return {
    method: auth.method,
    ...(auth.jwks
      ? {
          jwks: auth.jwks.keys.map((k) => (typeof k.kid === 'string' ? k.kid : String(k.kty))),
          jwksHash: hashOf(auth.jwks),
        }
      : {}),
    ...(auth.jwksUri ? { jwksUri: auth.jwksUri } : {}),
    ...(auth.tlsSubjectDn ? { tlsSubjectDn: auth.tlsSubjectDn } : {}),
  };
}

/** JSON with every object's members in order: the same keys whatever order the database kept. */
const canonical = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(canonical).join(',')}]`
    : value && typeof value === 'object'
      ? `{${Object.keys(value)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(value);

const hashOf = (value: unknown): string =>
  createHash('sha256').update(canonical(value)).digest('base64url').slice(0, 16);

/** Stores the method of every client of an application (one transaction is the caller's). */
export async function setApplicationClientAuthentication(
  db: Db,
  applicationUuid: string,
  value: ClientAuthentication,
): Promise<void> {
  await db
    .updateTable('oauth_clients')
    .set({
      auth_method: value.method,
      jwks: value.jwks ? JSON.stringify(value.jwks) : null,
      jwks_uri: value.jwksUri,
      tls_subject_dn: value.tlsSubjectDn,
      updated_at: new Date(),
    })
    .where('application_uuid', '=', applicationUuid)
    .execute();
}

/** The client metadata oidc-provider gets for a confidential client's method. */
export function clientAuthMetadata(auth: ClientAuthentication): Partial<ClientMetadata> {
  const keys = auth.jwksUri ? { jwks_uri: auth.jwksUri } : auth.jwks ? { jwks: auth.jwks } : {};
  switch (auth.method) {
    case 'client_secret':
      return { token_endpoint_auth_method: 'client_secret_basic' };
    case 'private_key_jwt':
      return { token_endpoint_auth_method: 'private_key_jwt', ...keys };
    case 'tls_client_auth':
      return {
        token_endpoint_auth_method: 'tls_client_auth',
        tls_client_auth_subject_dn: auth.tlsSubjectDn ?? undefined,
        tls_client_certificate_bound_access_tokens: true,
      };
    case 'self_signed_tls_client_auth':
      return {
        token_endpoint_auth_method: 'self_signed_tls_client_auth',
        ...keys,
        tls_client_certificate_bound_access_tokens: true,
      };
  }
}

/** The client certificate of a request, by TLS or (TRUST_PROXY only) the proxy's header. */
export function peerCertificate(
  req: IncomingMessage,
  config: Pick<Config, 'trustProxy' | 'mtls'>,
): { certificate: X509Certificate; verified: boolean } | undefined {
  const header = config.mtls?.certHeader;
  if (header && config.trustProxy) {
    const value = req.headers[header];
    if (typeof value === 'string' && value) {
      try {
        return { certificate: new X509Certificate(decodeURIComponent(value)), verified: true };
      } catch {
        return undefined;
      }
    }
    return undefined;
  }
  const socket = req.socket as Partial<TLSSocket>;
  if (typeof socket.getPeerX509Certificate !== 'function') return undefined;
  const certificate = socket.getPeerX509Certificate();
  if (!certificate) return undefined;
  // Verified: the TLS layer checked the chain up to a trusted CA, the sandbox CA or one of
  // MTLS_CLIENT_CA (decision 053). tls_client_auth needs that; self_signed_tls_client_auth and
  // certificate-bound tokens compare the certificate itself.
  return { certificate, verified: socket.authorized === true };
}

/** The provider settings spread into provider.ts: methods, mutual TLS and discovery's aliases. */
export function clientAuthConfiguration(config: Config): {
  clientAuthMethods: NonNullable<Configuration['clientAuthMethods']>;
  mTLS: NonNullable<NonNullable<Configuration['features']>['mTLS']>;
  discovery: Record<string, unknown>;
  fetch: NonNullable<Configuration['fetch']>;
} {
  const aliasBase = config.mtls ? `${config.mtls.publicUrl}/oauth` : undefined;
  return {
    clientAuthMethods: [
      'none',
      'client_secret_basic',
      'client_secret_post',
      'private_key_jwt',
      'tls_client_auth',
      'self_signed_tls_client_auth',
    ],
    mTLS: {
      enabled: true,
      certificateBoundAccessTokens: true,
      tlsClientAuth: true,
      selfSignedTlsClientAuth: true,
      getCertificate: (ctx: KoaContextWithOIDC) => peerCertificate(ctx.req, config)?.certificate,
      certificateAuthorized: (ctx: KoaContextWithOIDC) => peerCertificate(ctx.req, config)?.verified === true,
      certificateSubjectMatches: (ctx: KoaContextWithOIDC, property: string, expected: string) => {
        if (property !== 'tls_client_auth_subject_dn') return false;
        const cert = peerCertificate(ctx.req, config)?.certificate;
        return !!cert && dnMatches(cert.subject, expected);
      },
    },
    // oidc-provider refuses to fetch from special-use addresses (SSRF). Outside production a
    // jwks_uri on this machine (localhost, 127.0.0.1, [::1]: a TPP's tooling under development) is
    // fetched without that check; parseJwksUri accepts http only for these.
    fetch: (url, options) => {
      const { hostname } = new URL(url);
      if (config.nodeEnv !== 'production' && LOOPBACK.has(hostname)) {
        const { dispatcher: _guarded, ...unguarded } = options as RequestInit & { dispatcher?: unknown };
        return globalThis.fetch(url, unguarded);
      }
      return globalThis.fetch(url, options);
    },
    discovery: aliasBase
      ? {
          mtls_endpoint_aliases: {
            token_endpoint: `${aliasBase}/token`,
            introspection_endpoint: `${aliasBase}/token/introspection`,
            revocation_endpoint: `${aliasBase}/token/revocation`,
          },
        }
      : {},
  };
}

/** A confidential client's metadata with its stored method (public clients keep `none`). */
export function withClientAuth(meta: ClientMetadata, authentication: ClientAuthentication): ClientMetadata {
  if (meta.token_endpoint_auth_method === 'none') return meta;
  return { ...meta, ...clientAuthMetadata(authentication) };
}

/**
 * A client certificate that its CA revoked (a sandbox certificate, certificate-trust.ts) gets
 * nothing at the token endpoint and its siblings: 401 invalid_client saying so, before any client
 * authentication (oidc-provider's `certificateAuthorized` cannot wait for the database).
 */
export function refuseRevokedCertificates(
  provider: {
    use(middleware: (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>): unknown;
  },
  config: Pick<Config, 'trustProxy' | 'mtls'>,
  trust: () => CertificateTrust,
): void {
  provider.use(async (ctx, next) => {
    if (ctx.path === '/token' || ctx.path.startsWith('/token/')) {
      const presented = peerCertificate(ctx.req, config);
      const refusal = presented ? await trust().refusal(presented.certificate) : null;
      if (refusal) {
        ctx.status = 401;
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { error: 'invalid_client', error_description: refusal };
        return;
      }
    }
    await next();
  });
}
