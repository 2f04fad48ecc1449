import { randomBytes, randomUUID } from 'node:crypto';
import {
  SignJWT,
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors as joseErrors,
  importJWK,
  jwtVerify,
  type JWK,
  type JWTPayload,
} from 'jose';
import { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Db } from '../db/client.ts';
import type { SecretBox } from '../lib/secret-box.ts';
import { loadOrCreateSigningKeys } from '../oidc/keys.ts';

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
/** Client authentication methods a registered client may ask for. */
export const REGISTRATION_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'];
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
  ctx: KoaContextWithOIDC | undefined,
  value: unknown,
  metadata: Record<string, unknown>,
) {
  const route = ctx?.oidc?.route;
  if (!route || !REGISTRATION_ROUTES.has(route)) return;
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
  const method = metadata.token_endpoint_auth_method;
  if (method !== undefined && !REGISTRATION_AUTH_METHODS.includes(String(method)))
    throw new errors.InvalidClientMetadata(
      `token_endpoint_auth_method must be one of ${REGISTRATION_AUTH_METHODS.join(', ')}`,
    );
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
export function registrationConfiguration(ownUris: readonly string[]): Pick<
  Configuration,
  'extraClientMetadata'
> & {
  features: Pick<NonNullable<Configuration['features']>, 'registration' | 'registrationManagement'>;
} {
  return {
    extraClientMetadata: {
      properties: [...REGISTRATION_METADATA],
      validator(ctx, key, value, metadata) {
        if (key === 'software_statement')
          applyStatement(ownUris, ctx, value, metadata as unknown as Record<string, unknown>);
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
): RegisteredClientMetadata {
  const own = (uris: string[] | null) => (uris ?? []).filter((uri) => !ownUris.includes(uri));
  return {
    clientId,
    clientSecret: typeof payload.client_secret === 'string' ? payload.client_secret : null,
    clientName: typeof payload.client_name === 'string' ? payload.client_name : null,
    grantTypes: strings(payload.grant_types) ?? [],
    redirectUris: own(strings(payload.redirect_uris)),
    postLogoutRedirectUris: own(strings(payload.post_logout_redirect_uris)),
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
): Promise<void> {
  if (!registrar) throw new errors.InvalidRequest('dynamic client registration is not available');
  const ip = ctx?.ip ?? '';
  try {
    const statement =
      typeof payload.software_statement === 'string' ? await signer.verify(payload.software_statement) : null;
    if (!exists) {
      if (!statement)
        throw new RegistrationRefusal('invalid_software_statement', 'software_statement is required');
      await registrar.create(registeredClient(clientId, payload, ownUris), statement, ip);
    } else {
      await registrar.update(registeredClient(clientId, payload, ownUris), statement, ip);
    }
  } catch (err) {
    if (err instanceof RegistrationRefusal) throw toError(err);
    throw err;
  }
}
