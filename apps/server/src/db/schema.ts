import type { ColumnType, Generated, JSONColumnType } from 'kysely';

/**
 * The database as Kysely sees it. One interface per table; migrations in ./migrations create them.
 * Timestamps are `timestamptz`, read back as Date.
 */

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

export interface UsersTable {
  /** The numeric uid the spec filters by. */
  id: Generated<number>;
  uuid: Generated<string>;
  email: string;
  name: string;
  first_name: string | null;
  last_name: string | null;
  /** scrypt hash; null for users who only sign in through an external IdP. */
  password_hash: string | null;
  /** Provider administrator: may use the admin area. */
  is_admin: Generated<boolean>;
  /** Issuer and subject of an external IdP account linked to this user. */
  external_issuer: string | null;
  external_subject: string | null;
  completed_stories: JSONColumnType<string[]>;
  email_verified: Generated<boolean>;
  /** Set while an administrator has blocked the account (migration 0270). */
  blocked_at: Date | null;
  last_sign_in_at: Date | null;
  /** The user's language, a Locale of @portico/contracts/locales; null: Accept-Language decides (0309). */
  preferred_langcode: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** Provider roles besides the administrator (`users.is_admin`), migration 0270. */
export interface ProviderRolesTable {
  user_id: number;
  role: 'api_manager' | 'content_editor' | 'support_agent' | 'go_live_reviewer';
  granted_at: CreatedAt;
}

/** The append-only audit log (migration 0270, modules/audit). */
export interface AuditLogTable {
  id: ColumnType<string, never, never>;
  at: CreatedAt;
  actor_id: number | null;
  actor_email: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  target_label: string | null;
  organization_id: number | null;
  before: ColumnType<unknown, string | null, never> | null;
  after: ColumnType<unknown, string | null, never> | null;
  ip: string | null;
}

export interface SessionsTable {
  /** sha256 of the cookie value: a leaked table does not leak live sessions. */
  id: string;
  user_id: number;
  csrf_token: string;
  /** The IdP's id_token, kept for RP-initiated logout. */
  id_token: string | null;
  created_at: CreatedAt;
  last_seen_at: UpdatedAt;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

export interface LoginStatesTable {
  state: string;
  code_verifier: string;
  nonce: string;
  return_to: string | null;
  /** sha256 of the login cookie of the browser that asked for this state. */
  browser_hash: string | null;
  created_at: CreatedAt;
}

export interface OrganizationsTable {
  /** The numeric id (drupal_internal__id). */
  id: Generated<number>;
  uuid: Generated<string>;
  title: string;
  description: Generated<string>;
  creator_id: number | null;
  image_file_id: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface OrganizationRolesTable {
  /** 'organization-admin', 'organization-developer', 'organization-financial', 'organization-le'. */
  id: string;
  uuid: Generated<string>;
  label: string;
  description: string;
  permissions: JSONColumnType<string[]>;
  weight: Generated<number>;
}

export type MembershipStatus = 'active' | 'pending_invitation' | 'blocked';

export interface MembershipsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  organization_id: number;
  /** Null for an invitation to an address without an account (matched by lower(email)). */
  user_id: number | null;
  email: string;
  status: MembershipStatus;
  roles: string[];
  invited_by: number | null;
  resent_at: Date | string | null;
  created_at: CreatedAt;
  changed_at: UpdatedAt;
}

export interface FilesTable {
  /** The numeric fid. */
  id: Generated<number>;
  uuid: Generated<string>;
  organization_id: number;
  filename: string;
  mime: string;
  size: number;
  /** Where lib/storage.ts keeps the bytes. */
  storage_key: string;
  kind: 'image' | 'document';
  uploaded_by: number | null;
  created_at: CreatedAt;
}

export interface OidcPayloadsTable {
  /** `${model}:${id}`: one table serves every oidc-provider model of both issuers. */
  id: string;
  model: string;
  payload: JSONColumnType<Record<string, unknown>>;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: Date | string | null;
  consumed_at: Date | string | null;
}

export interface RateLimitsTable {
  key: string;
  window_start: ColumnType<Date, Date | string, Date | string>;
  count: number;
  /** Throttled counters (hitThrottle): the earliest time the next attempt is let through. */
  next_allowed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface SettingsTable {
  key: string;
  value: JSONColumnType<object>;
  updated_at: UpdatedAt;
}

export interface SiteContentTable {
  /** e.g. 'block-layout', 'cookies-consent'. */
  key: string;
  data: JSONColumnType<object>;
  updated_at: UpdatedAt;
  /** Migration 0280: the save counter and the last console save. */
  version: Generated<number>;
  edited_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Migration 0291: the pending document (not shown yet) and when it goes live. */
  draft: ColumnType<object | null, string | null | undefined, string | null>;
  publish_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/**
 * Migration 0281: every console save of a versioned item (lib/versioned-content.ts), whatever its
 * kind: items with an integer id name it in `item_id`, the site's keyed documents in `item_key`.
 */
export interface ContentRevisionsTable {
  id: Generated<number>;
  kind: string;
  item_id: number | null;
  item_key: string | null;
  version: number;
  author_id: number | null;
  author_email: string | null;
  created: Generated<Date>;
  fields: ColumnType<unknown, string, string>;
  /** Migration 0291: what the save did with its document, for kinds that say it (the site's texts). */
  state: ColumnType<'published' | 'draft' | 'scheduled' | null, string | null | undefined, never>;
}

export interface NewsletterSubscriptionsTable {
  id: Generated<number>;
  email: string;
  created_at: CreatedAt;
}

export interface PasswordResetsTable {
  /** sha256 of the token sent by e-mail. */
  token_hash: string;
  user_id: number;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: Date | string | null;
}

export interface EmailVerificationsTable {
  /** sha256 of the token sent by e-mail. */
  token_hash: string;
  user_id: number;
  /** The address the link was sent to: the one it proves. */
  email: string;
  created_at: CreatedAt;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: Date | string | null;
}

export interface TrustedSignInsTable {
  user_id: number;
  /** sha256 of 'device:<device cookie>' or 'ip:<address>'. */
  client_hash: string;
  last_used_at: UpdatedAt;
}

export interface OutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  /** 'stored' when no SMTP is configured, 'sent' or 'failed' otherwise. */
  status: string;
  error: string | null;
  created_at: CreatedAt;
}

export interface OauthClientsTable {
  client_id: string;
  /** Sealed with the secret box; null for a public client. */
  secret: string | null;
  application_uuid: string | null;
  environment: 'DEVELOPMENT' | 'PRODUCTION';
  grant_types: string[];
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  /** Access tokens must be DPoP-bound (migration 0306). */
  dpop_bound_access_tokens: ColumnType<boolean, boolean | undefined, boolean>;
  /** The FAPI 2.0 Security Profile applies (migration 0306). */
  fapi: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** Migration 0302: how the client authenticates at the token endpoint (authz-server/client-auth.ts). */
  auth_method: Generated<
    'client_secret' | 'private_key_jwt' | 'tls_client_auth' | 'self_signed_tls_client_auth'
  >;
  /** Migration 0302: the client's public keys (a JWKS document), or null. */
  jwks: JSONColumnType<{ keys: Record<string, unknown>[] } | null, string | null, string | null>;
  jwks_uri: string | null;
  tls_subject_dn: string | null;
}

/** DPoP proofs accepted by the sandbox gateway, for replay detection (migration 0307). */
export interface DpopProofJtisTable {
  jkt: string;
  jti: string;
  expires_at: ColumnType<Date, Date, Date>;
}

/** Migration 0300: every secret of a client; `oauth_clients.secret` is the current one. */
export interface OauthClientSecretsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  client_id: string;
  /** Sealed with the secret box. */
  secret: string;
  created_at: CreatedAt;
  /** Null: no expiry (the current secret). */
  expires_at: Date | null;
  revoked_at: Date | null;
  week_reminder_at: Date | null;
  day_reminder_at: Date | null;
}

export interface OauthClientScopesTable {
  client_id: string;
  scope: string;
}

export interface SandboxUsersTable {
  id: Generated<number>;
  uuid: Generated<string>;
  username: string;
  password_hash: string;
  name: string;
  email: string | null;
  created_at: CreatedAt;
}

export interface ApiCallsTable {
  id: Generated<number>;
  occurred_at: ColumnType<Date, Date | string, never>;
  application_uuid: string | null;
  client_id: string;
  environment: string;
  api_alias: string;
  /** Method and path template, e.g. 'GET /accounts/{accountId}'. */
  endpoint: string;
  method: string;
  status: number;
  duration_ms: number;
}

export interface ApiCallDailyTable {
  day: ColumnType<Date | string, string, string>;
  client_id: string;
  endpoint: string;
  calls: number;
  success_calls: number;
  failed_calls: number;
  min_ms: number;
  max_ms: number;
  sum_ms: number;
}

/** Migration 0279: the gateway's calls per UTC day, API and application (null: no application). */
export interface ApiCallsPerApiDayTable {
  day: ColumnType<Date | string, string, string>;
  api_alias: string;
  application_uuid: string | null;
  calls: number;
  errors: number;
}

/** Demo content imported once (migration 0070): see content/import-content.ts. */
export interface ContentImportsTable {
  key: string;
  imported_at: CreatedAt;
}

/** Change counters of public content (db/data-versions.ts, decision 018). */
export interface DataVersionsTable {
  domain: string;
  version: ColumnType<string, string | number | undefined, string | number>;
}

/**
 * Storage keys of deleted rows whose stored files are still to be removed (lib/file-removal.ts),
 * queued by triggers on `files` and `support_ticket_files` (migrations 0240, 0262).
 */
export interface StoredFileDeletionsTable {
  id: Generated<number>;
  storage_key: string;
  created: CreatedAt;
}

export interface Database {
  users: UsersTable;
  provider_roles: ProviderRolesTable;
  audit_log: AuditLogTable;
  sessions: SessionsTable;
  organizations: OrganizationsTable;
  organization_roles: OrganizationRolesTable;
  memberships: MembershipsTable;
  files: FilesTable;
  login_states: LoginStatesTable;
  oidc_payloads: OidcPayloadsTable;
  rate_limits: RateLimitsTable;
  settings: SettingsTable;
  site_content: SiteContentTable;
  content_revisions: ContentRevisionsTable;
  newsletter_subscriptions: NewsletterSubscriptionsTable;
  password_resets: PasswordResetsTable;
  email_verifications: EmailVerificationsTable;
  trusted_sign_ins: TrustedSignInsTable;
  outbox: OutboxTable;
  oauth_clients: OauthClientsTable;
  oauth_client_scopes: OauthClientScopesTable;
  dpop_proof_jtis: DpopProofJtisTable;
  oauth_client_secrets: OauthClientSecretsTable;
  sandbox_users: SandboxUsersTable;
  api_calls: ApiCallsTable;
  api_call_daily: ApiCallDailyTable;
  api_calls_per_api_day: ApiCallsPerApiDayTable;
  content_imports: ContentImportsTable;
  data_versions: DataVersionsTable;
  stored_file_deletions: StoredFileDeletionsTable;
}
