import path from 'node:path';
import { z } from 'zod';

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
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 7),
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
  logLevel: string;
  trustProxy: boolean;
  importContent: boolean;
  contentDir: string;
  loginRateLimit: number;
  signupRateLimit: number;
  sessionTtlMs: number;
  /** Where the built web app lives. */
  webDist: string;
}

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
  return {
    nodeEnv: e.NODE_ENV,
    port,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    publicUrlConfigured: e.PUBLIC_URL !== undefined,
    dataDir: path.resolve(e.DATA_DIR),
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
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    importContent: e.IMPORT_CONTENT,
    contentDir: path.resolve(e.CONTENT_DIR ?? path.join(repoRoot, 'content')),
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    signupRateLimit: e.SIGNUP_RATE_LIMIT,
    sessionTtlMs: e.SESSION_TTL_HOURS * 3600_000,
    webDist: path.resolve(e.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
  };
}
