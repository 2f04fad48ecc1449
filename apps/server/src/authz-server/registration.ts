import { randomBytes, randomUUID } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import {
  SignJWT,
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  decodeJwt,
  decodeProtectedHeader,
  errors as joseErrors,
  importJWK,
  jwtVerify,
  type JWK,
  type JWTPayload,
} from 'jose';
import { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { SecretBox } from '../lib/secret-box.ts';
import { loadOrCreateSigningKeys } from '../oidc/keys.ts';
import { ClientAuthInputError, clientAuthFromMetadata, type ClientAuthentication } from './client-auth.ts';

/**
 * Dynamic client registration (RFC 7591) and management (RFC 7592) with software statements
 * (issue 28, decision 052). The portal plays the part of the UK Open Banking directory: it signs a
 * software statement (SSA) for an organization's application, which the TPP's own tooling sends to
 * the authorization server's registration endpoint (`POST /oauth/reg`). oidc-provider runs the
 * endpoints and issues registration access tokens; this file checks the statement and hands the
 * registered client to the applications module (the `DynamicRegistrar`), which creates an
 * application in the statement's organization, subscribed like the one the statement names.
 */

/** The key set and algorithm of software statements (PS256, as the UK Open Banking directory). */
export const STATEMENT_KEYS_TAG = 'software-statements';
export const STATEMENT_ALG = 'PS256';
/** A statement can register clients for 90 days after it is downloaded. */
export const STATEMENT_LIFETIME_S = 90 * 24 * 3600;
/** Where the statements' public keys are published (the directory's keystore). */
export const STATEMENT_JWKS_PATH = '/oauth/software-statement-keys';

/** The claims of a software statement (UK Open Banking directory shape, sandbox mode). */
export interface SoftwareStatement {
  iss: string;
  iat: number;
  exp: number;
  jti: string;
  /** The application the statement was issued for. */
  software_id: string;
  software_client_id: string;
  software_client_name: string;
  software_client_description: string;
  software_version: string;
  software_environment: 'sandbox';
  software_mode: 'Test';
  software_redirect_uris: string[];
  /** PSD2 roles (PSP_AS, PSP_PI, PSP_AI, PSP_IC) of the application's certificate, if any. */
  software_roles: string[];
  org_id: string;
  org_name: string;
  org_status: 'Active';
}

/** Why a registration is refused, with the RFC 7591 error code it is answered with. */
export class RegistrationRefusal extends Error {
  override name = 'RegistrationRefusal';
  readonly code: 'invalid_software_statement' | 'invalid_client_metadata' | 'invalid_redirect_uri';
  constructor(code: RegistrationRefusal['code'], message: string) {
    super(message);
    this.code = code;
  }
}

/** The client metadata a registration or an update asks for, as oidc-provider validated it. */
export interface RegisteredClientMetadata {
  clientId: string;
  clientSecret: string | null;
  clientName: string | null;
  grantTypes: string[];
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  /** How the client authenticates (token_endpoint_auth_method and its keys or subject). */
  authentication: ClientAuthentication;
}

/**
 * What the applications module does with registered clients. `create` makes the application and
 * its client (with the id and secret oidc-provider answered with) in one transaction; `update`
 * applies an RFC 7592 update; `remove` deletes it. Each throws a RegistrationRefusal to refuse.
 */
export interface DynamicRegistrar {
  create(client: RegisteredClientMetadata, statement: SoftwareStatement, ip: string): Promise<void>;
  update(client: RegisteredClientMetadata, statement: SoftwareStatement | null, ip: string): Promise<void>;
  remove(clientId: string, ip: string): Promise<void>;
  /** True when the client was registered dynamically (only those are managed through RFC 7592). */
  isRegistered(clientId: string): Promise<boolean>;
}

/** Signs and verifies software statements with the portal's own key set (stored sealed). */
export async function createStatementSigner(db: Db, box: SecretBox, issuer: string) {
  const keys = await loadOrCreateSigningKeys(db, box, STATEMENT_KEYS_TAG);
  const signing = keys[0];
  if (!signing) throw new Error('no software statement signing key');
  const privateKey = await importJWK({ ...signing, alg: STATEMENT_ALG }, STATEMENT_ALG);
  const publicKeys: JWK[] = keys.map(({ kty, n, e, kid }) => ({
    kty,
    n,
    e,
    kid,
    alg: STATEMENT_ALG,
    use: 'sig',
  }));
  const keySet = createLocalJWKSet({ keys: publicKeys });

  return {
    issuer,
    publicKeys,
    /** A signed statement with the given claims (issuer, dates and id are added). */
    async sign(
      claims: Omit<SoftwareStatement, 'iss' | 'iat' | 'exp' | 'jti'>,
      now = new Date(),
    ): Promise<string> {
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT({ ...claims } as unknown as JWTPayload)
        .setProtectedHeader({ alg: STATEMENT_ALG, kid: signing.kid, typ: 'JWT' })
        .setIssuer(issuer)
        .setIssuedAt(iat)
        .setExpirationTime(iat + STATEMENT_LIFETIME_S)
        .setJti(randomUUID())
        .sign(privateKey);
    },
    /** The statement's claims when the portal signed it and it has not expired; else a refusal. */
    async verify(jwt: string): Promise<SoftwareStatement> {
      try {
        const { payload } = await jwtVerify(jwt, keySet, {
          issuer,
          algorithms: [STATEMENT_ALG],
          requiredClaims: ['iat', 'exp', 'software_id', 'org_id'],
        });
        return readStatement(payload);
      } catch (err) {
        if (err instanceof RegistrationRefusal) throw err;
        throw new RegistrationRefusal('invalid_software_statement', verificationProblem(err, issuer));
      }
    },
  };
}
export type StatementSigner = Awaited<ReturnType<typeof createStatementSigner>>;

/** A precise sentence for a statement that fails verification. */
function verificationProblem(err: unknown, issuer: string): string {
  if (err instanceof joseErrors.JWTExpired)
    return 'software_statement expired: download a new one from the application page on the portal';
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    if (err.claim === 'iss')
      return `software_statement was not issued by this portal (expected iss '${issuer}')`;
    return `software_statement claim '${err.claim}' is invalid: ${err.reason}`;
  }
  if (err instanceof joseErrors.JWKSNoMatchingKey)
    return 'software_statement is signed with a key this portal does not know (kid)';
  if (err instanceof joseErrors.JOSEAlgNotAllowed)
    return `software_statement must be signed with ${STATEMENT_ALG}`;
  if (err instanceof joseErrors.JWSSignatureVerificationFailed)
    return 'software_statement signature is not valid';
  if (err instanceof joseErrors.JWSInvalid || err instanceof joseErrors.JWTInvalid)
    return 'software_statement is not a signed JWT';
  return 'software_statement could not be verified';
}

const strings = (value: unknown): string[] | null =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : null;

/** The statement's claims, checked for the shape the portal signs. */
export function readStatement(payload: JWTPayload): SoftwareStatement {
  const text = (name: string): string => {
    const value = payload[name];
    if (typeof value !== 'string' || !value)
      throw new RegistrationRefusal(
        'invalid_software_statement',
        `software_statement claim '${name}' is missing`,
      );
    return value;
  };
  const list = (name: string): string[] => {
    const value = strings(payload[name] ?? []);
    if (!value)
      throw new RegistrationRefusal(
        'invalid_software_statement',
        `software_statement claim '${name}' must be an array of strings`,
      );
    return value;
  };
  return {
    iss: text('iss'),
    iat: Number(payload.iat),
    exp: Number(payload.exp),
    jti: typeof payload.jti === 'string' ? payload.jti : '',
    software_id: text('software_id'),
    software_client_id: typeof payload.software_client_id === 'string' ? payload.software_client_id : '',
    software_client_name: text('software_client_name'),
    software_client_description:
      typeof payload.software_client_description === 'string' ? payload.software_client_description : '',
    software_version: typeof payload.software_version === 'string' ? payload.software_version : '1',
    software_environment: 'sandbox',
    software_mode: 'Test',
    software_redirect_uris: list('software_redirect_uris'),
    software_roles: list('software_roles'),
    org_id: text('org_id'),
    org_name: typeof payload.org_name === 'string' ? payload.org_name : '',
    org_status: 'Active',
  };
}

/** Client metadata members of registration requests besides the recognized ones. */
export const REGISTRATION_METADATA = ['software_statement', 'software_id', 'software_version'] as const;
const REGISTRATION_ROUTES = new Set(['registration', 'client_update']);

const toError = (refusal: RegistrationRefusal): Error => {
  switch (refusal.code) {
    case 'invalid_redirect_uri':
      // Its constructor takes no description: the statement's rule is said instead.
      return Object.assign(new errors.InvalidRedirectUri(), { error_description: refusal.message });
    case 'invalid_client_metadata':
      return new errors.InvalidClientMetadata(refusal.message);
    default:
      return new errors.InvalidSoftwareStatement(refusal.message);
  }
};

/**
 * The statement's values win over the request's (RFC 7591 section 2.3): the redirect URIs must be
 * among the statement's, the name defaults to the statement's. Runs synchronously while
 * oidc-provider validates the metadata of a registration or an update (the signature is checked
 * when the client is stored, `storeRegisteredClient`).
 */
function applyStatement(
  ownUris: readonly string[],
  nodeEnv: Config['nodeEnv'],
  ctx: KoaContextWithOIDC | undefined,
  value: unknown,
  metadata: Record<string, unknown>,
) {
  const route = ctx?.oidc?.route;
  if (!route || !REGISTRATION_ROUTES.has(route)) return;
  // The method and its keys or subject, checked as the application form checks them; the mTLS
  // methods' tokens are certificate-bound (client-auth.ts), and the answer says so.
  const { method } = authenticationOf(metadata, nodeEnv);
  if (method === 'tls_client_auth' || method === 'self_signed_tls_client_auth')
    metadata.tls_client_certificate_bound_access_tokens = true;
  if (value === undefined) {
    if (route === 'registration')
      throw new errors.InvalidSoftwareStatement(
        'software_statement is required: download it from the application page on the portal',
      );
    return;
  }
  if (typeof value !== 'string')
    throw new errors.InvalidSoftwareStatement('software_statement must be a string (a signed JWT)');
  let claims: SoftwareStatement;
  try {
    if (decodeProtectedHeader(value).alg === 'none')
      throw new RegistrationRefusal('invalid_software_statement', 'software_statement must be signed');
    claims = readStatement(decodeJwt(value));
  } catch (err) {
    if (err instanceof RegistrationRefusal) throw toError(err);
    throw new errors.InvalidSoftwareStatement('software_statement is not a signed JWT');
  }
  const redirectUris = (strings(metadata.redirect_uris) ?? []).filter((uri) => !ownUris.includes(uri));
  const unknown = redirectUris.find((uri) => !claims.software_redirect_uris.includes(uri));
  if (unknown !== undefined)
    throw toError(
      new RegistrationRefusal(
        'invalid_redirect_uri',
        `redirect URI '${unknown}' is not among the software statement's software_redirect_uris`,
      ),
    );
  metadata.software_id = claims.software_id;
  metadata.software_version = claims.software_version;
  if (typeof metadata.client_name !== 'string' || !metadata.client_name.trim())
    metadata.client_name = claims.software_client_name;
}

/**
 * The parts of the provider's configuration for registration: the endpoints (open, the software
 * statement is the credential), registration access tokens rotated on every update, client ids and
 * secrets in the portal's own form, and the statement's members in the client metadata.
 */
/** The client's authentication (client-auth.ts, the form's checks); a problem is invalid_client_metadata. */
function authenticationOf(
  metadata: Record<string, unknown>,
  nodeEnv: Config['nodeEnv'],
): ClientAuthentication {
  try {
    return clientAuthFromMetadata(metadata, nodeEnv);
  } catch (err) {
    if (err instanceof ClientAuthInputError)
      throw new errors.InvalidClientMetadata(err.problems.map((p) => p.title).join('; '));
    throw err;
  }
}

export function registrationConfiguration(
  ownUris: readonly string[],
  nodeEnv: Config['nodeEnv'],
): Pick<Configuration, 'extraClientMetadata'> & {
  features: Pick<NonNullable<Configuration['features']>, 'registration' | 'registrationManagement'>;
} {
  return {
    extraClientMetadata: {
      properties: [...REGISTRATION_METADATA],
      validator(ctx, key, value, metadata) {
        if (key === 'software_statement')
          applyStatement(ownUris, nodeEnv, ctx, value, metadata as unknown as Record<string, unknown>);
      },
    },
    features: {
      registration: {
        enabled: true,
        initialAccessToken: false,
        issueRegistrationAccessToken: true,
        idFactory: () => randomBytes(16).toString('hex'),
        secretFactory: () => Promise.resolve(randomBytes(32).toString('base64url')),
      },
      registrationManagement: { enabled: true, rotateRegistrationAccessToken: true },
    },
  };
}

/** The client oidc-provider stores after a registration or an RFC 7592 update, in our terms. */
function registeredClient(
  clientId: string,
  payload: Record<string, unknown>,
  ownUris: readonly string[],
  nodeEnv: Config['nodeEnv'],
): RegisteredClientMetadata {
  const own = (uris: string[] | null) => (uris ?? []).filter((uri) => !ownUris.includes(uri));
  return {
    clientId,
    clientSecret: typeof payload.client_secret === 'string' ? payload.client_secret : null,
    clientName: typeof payload.client_name === 'string' ? payload.client_name : null,
    grantTypes: strings(payload.grant_types) ?? [],
    redirectUris: own(strings(payload.redirect_uris)),
    postLogoutRedirectUris: own(strings(payload.post_logout_redirect_uris)),
    authentication: authenticationOf(payload, nodeEnv),
  };
}

/**
 * Stores what oidc-provider registered or updated (its adapter's `upsert` of a Client): the
 * statement's signature is checked here (asynchronously), then the registrar creates or updates
 * the application. A refusal becomes the RFC 7591 error; nothing is stored.
 */
export async function storeRegisteredClient(
  registrar: DynamicRegistrar | null,
  signer: StatementSigner,
  clientId: string,
  payload: Record<string, unknown>,
  ctx: KoaContextWithOIDC | undefined,
  exists: boolean,
  ownUris: readonly string[],
  nodeEnv: Config['nodeEnv'],
): Promise<void> {
  if (!registrar) throw new errors.InvalidRequest('dynamic client registration is not available');
  const ip = ctx?.ip ?? '';
  try {
    const statement =
      typeof payload.software_statement === 'string' ? await signer.verify(payload.software_statement) : null;
    if (!exists) {
      if (!statement)
        throw new RegistrationRefusal('invalid_software_statement', 'software_statement is required');
      await registrar.create(registeredClient(clientId, payload, ownUris, nodeEnv), statement, ip);
    } else {
      await registrar.update(registeredClient(clientId, payload, ownUris, nodeEnv), statement, ip);
    }
  } catch (err) {
    if (err instanceof RegistrationRefusal) throw toError(err);
    throw err;
  }
}

/** Signature algorithms of a signed registration request (asymmetric ones only). */
export const SIGNED_REQUEST_ALGS = ['PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'RS256', 'EdDSA'];
const SIGNED_REQUEST_LIMIT = 56 * 1024;
const REGISTRATION_PATH = /^\/reg(\/[^/]+)?$/;

/** The public keys of the application a statement names (its client authentication's JWKS). */
export type ApplicationKeys = (
  softwareId: string,
) => Promise<Pick<ClientAuthentication, 'jwks' | 'jwksUri'> | undefined>;

/**
 * A signed registration request (the UK Open Banking shape: `Content-Type: application/jwt`, a
 * JWS whose claims are the client metadata with `software_statement`): the claims, once the
 * statement is the portal's and the request is signed by a key of the statement's application
 * (`software_id`), `iss` that software_id and `aud` this issuer. Refusals are RFC 7591 errors
 * naming what is wrong.
 */
export async function verifySignedRegistration(
  jws: string,
  signer: StatementSigner,
  keysOf: ApplicationKeys,
  issuer: string,
  nodeEnv: Config['nodeEnv'],
): Promise<Record<string, unknown>> {
  const refuse = (message: string) => new RegistrationRefusal('invalid_client_metadata', message);
  let claims: JWTPayload;
  try {
    if (decodeProtectedHeader(jws).alg === 'none')
      throw refuse('the registration request JWT must be signed');
    claims = decodeJwt(jws);
  } catch (err) {
    if (err instanceof RegistrationRefusal) throw err;
    throw refuse('the registration request is not a signed JWT (a JWS in compact form)');
  }
  if (typeof claims.software_statement !== 'string')
    throw new RegistrationRefusal(
      'invalid_software_statement',
      "software_statement is required among the registration request JWT's claims",
    );
  const statement = await signer.verify(claims.software_statement);
  const keys = await keysOf(statement.software_id);
  if (!keys?.jwks && !keys?.jwksUri)
    throw refuse(
      "the registration request JWT cannot be verified: the software statement's application has no public keys; set its client authentication to a signed JWT with a JWKS or JWKS URL on the portal",
    );
  const keySet = keys.jwks
    ? createLocalJWKSet(keys.jwks as unknown as Parameters<typeof createLocalJWKSet>[0])
    : createRemoteJWKSet(new URL(keys.jwksUri!), { [customFetch]: guardedFetch(nodeEnv) });
  try {
    const { payload } = await jwtVerify(jws, keySet, {
      algorithms: SIGNED_REQUEST_ALGS,
      issuer: statement.software_id,
      audience: issuer,
      requiredClaims: ['iss', 'aud', 'iat'],
      maxTokenAge: '1h',
      clockTolerance: 60,
    });
    const metadata: Record<string, unknown> = { ...payload };
    // The JWT's own claims are not client metadata.
    for (const claim of ['iss', 'aud', 'iat', 'exp', 'nbf', 'jti']) delete metadata[claim];
    return metadata;
  } catch (err) {
    throw refuse(signedRequestProblem(err, statement.software_id, issuer));
  }
}

/** Addresses a jwks_uri may not point at in production (loopback, private, link-local, …). */
const SPECIAL_USE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 3],
] as const)
  SPECIAL_USE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['::ffff:0:0', 96],
] as const)
  SPECIAL_USE.addSubnet(net, prefix, 'ipv6');

/**
 * The fetch of an application's jwks_uri for a signed registration request: in production never
 * to this machine or a private network (as oidc-provider's own fetch of jwks_uri); outside it,
 * loopback is how a TPP's tooling under development publishes its keys (client-auth.ts).
 */
const guardedFetch =
  (nodeEnv: Config['nodeEnv']) =>
  async (url: string, options: RequestInit): Promise<Response> => {
    if (nodeEnv === 'production') {
      const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
      const addresses = isIP(host)
        ? [{ address: host, family: isIP(host) }]
        : await lookup(host, { all: true });
      if (addresses.some((a) => SPECIAL_USE.check(a.address, a.family === 6 ? 'ipv6' : 'ipv4')))
        throw new Error('the JWKS URL points at a private or special-use address');
    }
    return fetch(url, { ...options, redirect: 'error' });
  };

function signedRequestProblem(err: unknown, softwareId: string, issuer: string): string {
  const prefix = 'registration request JWT';
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    if (err.claim === 'iss')
      return `${prefix} claim 'iss' must be the software statement's software_id '${softwareId}'`;
    if (err.claim === 'aud') return `${prefix} claim 'aud' must be the authorization server '${issuer}'`;
    return `${prefix} claim '${err.claim}' is invalid: ${err.reason}`;
  }
  if (err instanceof joseErrors.JWTExpired) return `${prefix} expired (exp)`;
  if (err instanceof joseErrors.JOSEAlgNotAllowed)
    return `${prefix} must be signed with one of ${SIGNED_REQUEST_ALGS.join(', ')}`;
  if (err instanceof joseErrors.JWKSNoMatchingKey || err instanceof joseErrors.JWKSMultipleMatchingKeys)
    return `${prefix} is signed with a key that is not in the JWKS of the software statement's application (kid)`;
  if (err instanceof joseErrors.JWSSignatureVerificationFailed)
    return `${prefix} signature does not verify with the public keys of the software statement's application`;
  if (err instanceof joseErrors.JOSEError) return `${prefix} could not be verified (${err.message})`;
  return `${prefix} could not be verified`;
}

async function readRequestBody(req: NodeJS.ReadableStream & { headers: Record<string, unknown> }) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buf.length;
    if (size > SIGNED_REQUEST_LIMIT) return undefined;
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8').trim();
}

/**
 * oidc-provider reads JSON registration requests only. A signed one (`application/jwt`, POST
 * /reg or an RFC 7592 PUT /reg/:id) is verified here first and handed on as the JSON of its
 * claims: from there on it is the same request (the statement is checked again when the client
 * is stored). A refusal is answered here, 400 with the RFC 7591 error.
 */
export function acceptSignedRegistrations(
  provider: {
    use(middleware: (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>): unknown;
  },
  signer: StatementSigner,
  keysOf: ApplicationKeys,
  issuer: string,
  nodeEnv: Config['nodeEnv'],
): void {
  provider.use(async (ctx, next) => {
    if (
      (ctx.method !== 'POST' && ctx.method !== 'PUT') ||
      !REGISTRATION_PATH.test(ctx.path) ||
      !ctx.is('application/jwt')
    )
      return next();
    const answer = (error: string, description: string) => {
      ctx.status = 400;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { error, error_description: description };
    };
    const jws = await readRequestBody(ctx.req as never);
    if (jws === undefined) return answer('invalid_request', 'the registration request is too large');
    let metadata: Record<string, unknown>;
    try {
      metadata = await verifySignedRegistration(jws, signer, keysOf, issuer, nodeEnv);
    } catch (err) {
      if (err instanceof RegistrationRefusal) return answer(err.code, err.message);
      throw err;
    }
    const json = Buffer.from(JSON.stringify(metadata));
    // The provider reads the body from the request stream: it gets the claims' JSON instead.
    Object.defineProperty(ctx.req, 'readable', { value: true, configurable: true });
    Object.defineProperty(ctx.req, 'iterator', {
      configurable: true,
      value: () =>
        (async function* () {
          yield json;
        })(),
    });
    ctx.req.headers['content-type'] = 'application/json';
    ctx.req.headers['content-length'] = String(json.length);
    return next();
  });
}
