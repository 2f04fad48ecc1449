import path from 'node:path';
import { z } from 'zod';
import type { S3Settings } from './lib/s3-storage.ts';

/**
 * Every setting the server reads from the environment, validated once at start-up.
 * A bad value stops the process with a message naming the variable, instead of failing later.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** The address users reach the portal at; used for OIDC redirect URIs and links in e-mails. */
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /** Key for encrypting secrets at rest; generated into DATA_DIR on first start when not given. */
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Developers Portal <no-reply@portico.local>'),
  NEWSLETTER_URL: z.url().optional(),
  SUPPORT_EMAIL: z.email().default('developers@portico.local'),
  // The contact form's proof of work (modules/support/README.md): PBKDF2 iterations per try and
  // the largest counter a challenge hides; the defaults take a browser a second or two
  // (`npm run bench:captcha`, decision 021). Tests
  // (NODE_ENV=test) default to a trivial challenge.
  // Who may use support tickets (modules/support/README.md): every signed-in user, or only those
  // with a verified address.
  SUPPORT_TICKETS_FOR: z.enum(['users', 'verified']).default('users'),
  CAPTCHA_COST: z.coerce.number().int().min(1).max(1_000_000).optional(),
  CAPTCHA_COUNTER_MAX: z.coerce.number().int().min(2).max(10_000_000).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Set when a TLS-terminating proxy sits in front: client IPs come from X-Forwarded-For, and a
   * request it marks X-Forwarded-Proto: https gets Secure cookies and HSTS (lib/transport.ts),
   * even with a plain PUBLIC_URL. An https PUBLIC_URL gives both on every request.
   */
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Import demo content from content/ on start (idempotent). */
  IMPORT_CONTENT: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  CONTENT_DIR: z.string().min(1).optional(),
  /** The built web app; defaults to apps/web/dist of this checkout. */
  WEB_DIST: z.string().min(1).optional(),
  /**
   * Failed sign-in attempts per 15 minutes: this many for one address, five times as many from one
   * IP address (a successful sign-in does not count against its IP).
   */
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  /** Accounts one IP address may create per hour (offices and CI runners share one address). */
  SIGNUP_RATE_LIMIT: z.coerce.number().int().min(1).default(200),
  /** Tool calls through /mcp per hour, per user (signed-in assistant) or per address (decision 056). */
  MCP_RATE_LIMIT: z.coerce.number().int().min(1).default(600),
  /**
   * The most results one site search serves (decision 029): its count visits at most this many
   * matches and past it says "at least", so a common word costs no more than a rare one.
   */
  SEARCH_RESULTS_MAX: z.coerce.number().int().min(10).max(100_000).default(1000),
  /**
   * Uploaded files in an S3 bucket (s3://bucket/prefix?endpoint=…&region=…&forcePathStyle=…) instead
   * of DATA_DIR/files, so that several instances share them.
   */
  STORAGE_URL: z
    .string()
    .regex(/^s3:\/\//, 'must be an s3://bucket/prefix URL')
    .optional(),
  // The standard variables of the AWS SDKs, read for STORAGE_URL only.
  AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  AWS_SESSION_TOKEN: z.string().min(1).optional(),
  AWS_REGION: z.string().min(1).optional(),
  AWS_ENDPOINT_URL_S3: z.url({ protocol: /^https?$/ }).optional(),
  AWS_ENDPOINT_URL: z.url({ protocol: /^https?$/ }).optional(),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 7),
  /**
   * Public content (modules/content/README.md). The internal blog's readers besides the provider's
   * administrators: users whose e-mail domain is in this comma-separated list.
   */
  INTERNAL_DEVELOPER_DOMAINS: z.string().default(''),
  /** Cloud documents (Google Drive): the OAuth client id of the web app; unset turns the viewer off. */
  CLOUD_DOCS_CLIENT_ID: z.string().min(1).optional(),
  CLOUD_DOCS_AUTH_URL: z.url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  CLOUD_DOCS_API_URL: z.url().default('https://www.googleapis.com'),
  /** The PDF download link of a document; `{id}` is replaced by the document id. */
  CLOUD_DOCS_PDF_URL: z.string().min(1).default('https://docs.google.com/document/d/{id}/export?format=pdf'),
  /**
   * Mutual TLS (issue 28, decision 049): an HTTPS port that asks for a client certificate and
   * serves the token endpoint and the sandbox; its server certificate and key (PEM files, both or
   * neither: without them one is generated at start, self-signed); a CA bundle client
   * certificates must chain to (without it any certificate is taken, the registered subject or key
   * decides); the address clients reach it at (default: PUBLIC_URL's host on that port).
   */
  SANDBOX_MTLS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  MTLS_SERVER_CERT: z.string().min(1).optional(),
  MTLS_SERVER_KEY: z.string().min(1).optional(),
  MTLS_CLIENT_CA: z.string().min(1).optional(),
  MTLS_PUBLIC_URL: z.url({ protocol: /^https$/ }).optional(),
  /**
   * Behind a TLS-terminating proxy: the request header carrying the verified client certificate
   * (PEM, URL-encoded, as nginx's $ssl_client_escaped_cert). Honoured only with TRUST_PROXY=true.
   */
  MTLS_CERT_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'must be a header name (letters, digits and hyphens)')
    .optional(),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string;
  /** False when PUBLIC_URL was not given: then localhost and 127.0.0.1 both work for sign-in. */
  publicUrlConfigured: boolean;
  dataDir: string;
  databaseUrl: string | undefined;
  secretKey: string | undefined;
  oidc: { issuer: string; clientId: string; clientSecret: string | undefined } | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  newsletterUrl: string | undefined;
  supportEmail: string;
  captcha: { cost: number; counterMax: number };
  supportTicketsFor: 'users' | 'verified';
  logLevel: string;
  trustProxy: boolean;
  importContent: boolean;
  contentDir: string;
  loginRateLimit: number;
  signupRateLimit: number;
  /** Tool calls through /mcp per hour and caller (MCP_RATE_LIMIT). */
  mcpRateLimit: number;
  searchResultsMax: number;
  sessionTtlMs: number;
  /** Where the built web app lives. */
  webDist: string;
  /** Where uploaded files live: DATA_DIR/files, or an S3 bucket (STORAGE_URL). */
  storage: StorageConfig;
  /** Lower-case e-mail domains of the internal developers group (modules/content/README.md). */
  internalDeveloperDomains: string[];
  /** The cloud document viewer's settings; undefined when not set up. */
  cloudDocs: { clientId: string; authUrl: string; apiUrl: string; pdfUrl: string } | undefined;
  /** Mutual TLS (authz-server/client-auth.ts, mtls-listener.ts); undefined when not set up. */
  mtls: MtlsConfig | undefined;
}

export interface MtlsConfig {
  /** The HTTPS port asking for client certificates (SANDBOX_MTLS_PORT), if any. */
  port: number | undefined;
  serverCertFile: string | undefined;
  serverKeyFile: string | undefined;
  clientCaFile: string | undefined;
  /** The lower-case header a trusted proxy puts the client certificate in (TRUST_PROXY only). */
  certHeader: string | undefined;
  /** Where clients reach the mTLS endpoints (discovery's mtls_endpoint_aliases). */
  publicUrl: string;
}

export type StorageConfig = { kind: 'folder'; dir: string } | ({ kind: 's3' } & S3Settings);

export class ConfigError extends Error {}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** Parses the environment; throws ConfigError with one line per bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const externalIdp = [e.OIDC_ISSUER, e.OIDC_CLIENT_ID].filter(Boolean).length;
  if (externalIdp === 1) {
    throw new ConfigError(
      'Invalid configuration:\n  OIDC_ISSUER and OIDC_CLIENT_ID must be given together (or neither, for the built-in identity provider)',
    );
  }
  const port = e.PORT;
  const mtlsProblems: string[] = [];
  if (Boolean(e.MTLS_SERVER_CERT) !== Boolean(e.MTLS_SERVER_KEY))
    mtlsProblems.push(
      'MTLS_SERVER_CERT and MTLS_SERVER_KEY must be given together (or neither, for a generated one)',
    );
  if (e.SANDBOX_MTLS_PORT !== undefined && e.SANDBOX_MTLS_PORT === port)
    mtlsProblems.push('SANDBOX_MTLS_PORT must differ from PORT');
  if (!e.SANDBOX_MTLS_PORT && (e.MTLS_SERVER_CERT || e.MTLS_CLIENT_CA))
    mtlsProblems.push('MTLS_SERVER_CERT, MTLS_SERVER_KEY and MTLS_CLIENT_CA need SANDBOX_MTLS_PORT');
  if (mtlsProblems.length) throw new ConfigError(`Invalid configuration:\n  ${mtlsProblems.join('\n  ')}`);
  const dataDir = path.resolve(e.DATA_DIR);
  const storage: StorageConfig = e.STORAGE_URL
    ? { kind: 's3', ...s3Settings(e.STORAGE_URL, e) }
    : { kind: 'folder', dir: path.join(dataDir, 'files') };
  return {
    nodeEnv: e.NODE_ENV,
    port,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    publicUrlConfigured: e.PUBLIC_URL !== undefined,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    secretKey: e.SECRET_KEY,
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID
        ? { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET }
        : undefined,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    newsletterUrl: e.NEWSLETTER_URL,
    supportEmail: e.SUPPORT_EMAIL,
    supportTicketsFor: e.SUPPORT_TICKETS_FOR,
    captcha: {
      cost: e.CAPTCHA_COST ?? (e.NODE_ENV === 'test' ? 1 : 5_000),
      counterMax: e.CAPTCHA_COUNTER_MAX ?? (e.NODE_ENV === 'test' ? 20 : 2_000),
    },
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    importContent: e.IMPORT_CONTENT,
    contentDir: path.resolve(e.CONTENT_DIR ?? path.join(repoRoot, 'content')),
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    signupRateLimit: e.SIGNUP_RATE_LIMIT,
    mcpRateLimit: e.MCP_RATE_LIMIT,
    searchResultsMax: e.SEARCH_RESULTS_MAX,
    sessionTtlMs: e.SESSION_TTL_HOURS * 3600_000,
    webDist: path.resolve(e.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
    storage,
    internalDeveloperDomains: e.INTERNAL_DEVELOPER_DOMAINS.split(',')
      .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
      .filter(Boolean),
    cloudDocs: e.CLOUD_DOCS_CLIENT_ID
      ? {
          clientId: e.CLOUD_DOCS_CLIENT_ID,
          authUrl: e.CLOUD_DOCS_AUTH_URL,
          apiUrl: e.CLOUD_DOCS_API_URL.replace(/\/$/, ''),
          pdfUrl: e.CLOUD_DOCS_PDF_URL,
        }
      : undefined,
    mtls: mtlsConfig(e, port),
  };
}

function mtlsConfig(e: z.output<typeof envSchema>, port: number): MtlsConfig | undefined {
  if (e.SANDBOX_MTLS_PORT === undefined && e.MTLS_CERT_HEADER === undefined) return undefined;
  const base = new URL(e.PUBLIC_URL ?? `http://localhost:${port}`);
  const fallback = e.SANDBOX_MTLS_PORT ? `https://${base.hostname}:${e.SANDBOX_MTLS_PORT}` : base.origin;
  return {
    port: e.SANDBOX_MTLS_PORT,
    serverCertFile: e.MTLS_SERVER_CERT && path.resolve(e.MTLS_SERVER_CERT),
    serverKeyFile: e.MTLS_SERVER_KEY && path.resolve(e.MTLS_SERVER_KEY),
    clientCaFile: e.MTLS_CLIENT_CA && path.resolve(e.MTLS_CLIENT_CA),
    certHeader: e.MTLS_CERT_HEADER?.toLowerCase(),
    publicUrl: (e.MTLS_PUBLIC_URL ?? fallback).replace(/\/$/, ''),
  };
}

// S3's rules for bucket names (R2, MinIO and Ceph follow them too).
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const S3_PARAMETERS = ['endpoint', 'region', 'forcePathStyle'];

/**
 * STORAGE_URL and the AWS_* variables as the settings of the S3 client. The URL names the bucket
 * and an optional key prefix; its parameters the service (endpoint, region, path-style addressing);
 * credentials come from AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or, without them, from the AWS
 * SDK's default chain — never from the URL, which ends up in logs and process listings.
 */
function s3Settings(storageUrl: string, e: z.output<typeof envSchema>): S3Settings {
  const problems: string[] = [];
  let url: URL | undefined;
  try {
    url = new URL(storageUrl);
  } catch {
    problems.push('STORAGE_URL: must be an s3://bucket/prefix URL');
  }
  const bucket = url?.hostname ?? '';
  if (url && (!BUCKET.test(bucket) || bucket.includes('..'))) {
    problems.push(
      `STORAGE_URL: "${bucket}" is not a bucket name (3 to 63 lowercase letters, digits, dots and hyphens)`,
    );
  }
  if (url && (url.username || url.password)) {
    problems.push(
      'STORAGE_URL: put credentials in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, not in the URL',
    );
  }
  if (url?.port) problems.push('STORAGE_URL: a port belongs in the endpoint parameter');
  const params = url?.searchParams ?? new URLSearchParams();
  for (const name of new Set(params.keys())) {
    if (!S3_PARAMETERS.includes(name)) {
      problems.push(`STORAGE_URL: unknown parameter "${name}" (known: ${S3_PARAMETERS.join(', ')})`);
    } else if (params.getAll(name).length > 1) {
      problems.push(`STORAGE_URL: the parameter "${name}" is given more than once`);
    }
  }
  const endpoint = params.get('endpoint') ?? e.AWS_ENDPOINT_URL_S3 ?? e.AWS_ENDPOINT_URL;
  if (endpoint !== undefined && !z.url({ protocol: /^https?$/ }).safeParse(endpoint).success) {
    problems.push('STORAGE_URL: the endpoint parameter must be an http:// or https:// URL');
  }
  const region = params.get('region') ?? e.AWS_REGION ?? 'us-east-1';
  if (region === '') problems.push('STORAGE_URL: the region parameter is empty');
  const pathStyle = params.get('forcePathStyle');
  if (pathStyle !== null && pathStyle !== 'true' && pathStyle !== 'false') {
    problems.push('STORAGE_URL: forcePathStyle must be true or false');
  }
  if (Boolean(e.AWS_ACCESS_KEY_ID) !== Boolean(e.AWS_SECRET_ACCESS_KEY)) {
    problems.push('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be given together (or neither)');
  }
  let parts: string[] = [];
  try {
    parts = decodeURIComponent(url?.pathname ?? '')
      .split('/')
      .filter(Boolean);
  } catch {
    problems.push('STORAGE_URL: the prefix is not a valid percent-encoded path');
  }
  if (parts.some((part) => part === '.' || part === '..')) {
    problems.push('STORAGE_URL: the prefix may not contain . or .. parts');
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  const prefix = parts.map((part) => `${part}/`).join('');
  return {
    bucket,
    prefix,
    region,
    endpoint,
    // Services of one's own (MinIO, Ceph) rarely have a DNS name per bucket: path style there.
    forcePathStyle: pathStyle === null ? endpoint !== undefined : pathStyle === 'true',
    credentials:
      e.AWS_ACCESS_KEY_ID && e.AWS_SECRET_ACCESS_KEY
        ? {
            accessKeyId: e.AWS_ACCESS_KEY_ID,
            secretAccessKey: e.AWS_SECRET_ACCESS_KEY,
            ...(e.AWS_SESSION_TOKEN ? { sessionToken: e.AWS_SESSION_TOKEN } : {}),
          }
        : undefined,
  };
}
