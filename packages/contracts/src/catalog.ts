import type { Locale } from './locales.ts';
/**
 * Shapes of the catalog's documentation calls (apps/server/src/modules/catalog/README.md), shared
 * by the server that builds them and the web app's API reference that renders them. Every
 * `description` (API, tag, security scheme, operation, parameter, body, response, header, and those
 * inside schemas) is the document's CommonMark as written; the web app renders it sanitized.
 */

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** One operation in the index: enough for the list and deep links, no schemas. */
export interface OperationSummary {
  /** Stable within a document: the operationId when usable, else e.g. 'get-accounts-accountId'. */
  key: string;
  method: HttpMethod;
  path: string;
  summary: string | null;
  operationId: string | null;
  deprecated: boolean;
  /** False when the operation needs no token (`security: []`). */
  secured: boolean;
  /** OAuth 2 / OpenID Connect scopes of its first security requirement. */
  scopes: string[];
  /**
   * An OpenAPI 3.1 webhook (the document's `webhooks`): a request the API sends to the subscriber.
   * `path` is then the webhook's name. Absent for ordinary operations.
   */
  webhook?: boolean;
}

export interface OperationTagGroup {
  name: string;
  description: string | null;
  operations: OperationSummary[];
}

export interface OAuthFlowSummary {
  authorizationUrl?: string;
  tokenUrl?: string;
  refreshUrl?: string;
  scopes: Record<string, string>;
}

export interface SecuritySchemeSummary {
  name: string;
  type: string;
  description: string | null;
  /** apiKey: header, query or cookie; http: the scheme (bearer, basic). */
  in?: string;
  paramName?: string;
  scheme?: string;
  bearerFormat?: string;
  openIdConnectUrl?: string;
  flows?: Partial<
    Record<'implicit' | 'password' | 'clientCredentials' | 'authorizationCode', OAuthFlowSummary>
  >;
}

/** GET /api/apidocs/{alias}/index */
export interface OperationIndex {
  alias: string;
  title: string;
  version: string | null;
  /** CommonMark from info.description. */
  description: string | null;
  servers: string[];
  contentHash: string;
  /** Operations under `paths`, each counted once (whatever its number of tags); webhooks apart. */
  operationCount: number;
  tags: OperationTagGroup[];
  securitySchemes: SecuritySchemeSummary[];
  /**
   * The document's OpenAPI 3.1 `webhooks`, one entry per webhook operation, in document order.
   * Absent in indexes stored before webhooks were indexed (read as none).
   */
  webhooks?: OperationSummary[];
  webhookCount?: number;
  /**
   * Asked with `?langcode=` (decision 063): the language asked for, the one shown, and whether the
   * default language's texts are shown for want of a translation.
   */
  translation?: { langcode: Locale; shown: Locale; fallback: boolean };
}

/** How many distinct operations tag groups list: an operation under several tags counts once. */
export function countOperations(index: Pick<OperationIndex, 'tags'>): number {
  const keys = new Set<string>();
  for (const tag of index.tags) for (const op of tag.operations) keys.add(op.key);
  return keys.size;
}

/** JSON schema as found in the converted document; circular parts stay `{ $ref }` (see `refs`). */
export type JsonSchema = { [key: string]: unknown } | boolean;

export interface ParameterDetail {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  deprecated: boolean;
  description: string | null;
  schema: JsonSchema | null;
  style?: string;
  explode?: boolean;
  example?: unknown;
  examples?: Record<string, unknown>;
}

export interface MediaTypeDetail {
  schema: JsonSchema | null;
  example?: unknown;
  examples?: Record<string, { summary?: string; description?: string; value?: unknown }>;
}

export interface RequestBodyDetail {
  description: string | null;
  required: boolean;
  content: Record<string, MediaTypeDetail>;
}

export interface ResponseDetail {
  status: string;
  description: string | null;
  headers: Record<string, { description: string | null; schema: JsonSchema | null }>;
  content: Record<string, MediaTypeDetail>;
}

/** One alternative of the operation's security: every scheme named must be satisfied. */
export type SecurityRequirementDetail = { scheme: string; type: string; scopes: string[] }[];

export interface CodeSample {
  /** 'curl', 'javascript', 'python', 'java', 'node'. */
  id: string;
  label: string;
  /** For syntax highlighting: 'bash', 'javascript', 'python', 'java'. */
  language: string;
  code: string;
}

/** GET /api/apidocs/{alias}/operations/{operationKey} */
export interface OperationDetail extends OperationSummary {
  description: string | null;
  tags: string[];
  server: string;
  parameters: ParameterDetail[];
  requestBody: RequestBodyDetail | null;
  responses: ResponseDetail[];
  /** Empty when no token is needed. */
  security: SecurityRequirementDetail[];
  samples: CodeSample[];
  /** Targets of every `$ref` left in this operation (circular schemas), by pointer. */
  refs: Record<string, JsonSchema>;
}

/** A problem of an imported OpenAPI document: a JSON pointer into it, and the line when known. */
export interface DocumentProblem {
  path: string;
  message: string;
  line?: number;
  column?: number;
}

/**
 * Which of an application's credentials a security scheme takes in the sandbox (decision 016):
 * an API key is the client id, HTTP Basic the client id and secret, everything else (bearer,
 * OAuth 2, OpenID Connect) an access token of the portal's authorization server.
 */
export type SandboxCredential = 'clientId' | 'clientIdAndSecret' | 'accessToken';

export function sandboxCredential(scheme: { type?: string; scheme?: string }): SandboxCredential {
  if (scheme.type === 'apiKey') return 'clientId';
  if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') return 'clientIdAndSecret';
  return 'accessToken';
}

/**
 * Where a scheme's credential travels in a request: 'header:authorization', 'query:key'... (header
 * names compared without case). Two schemes of one requirement in the same place cannot both be
 * sent (Azure Container Registry's HTTP Basic beside an API key named `Authorization`): the
 * sandbox then takes either, and the samples and the try-out send the first. An API key without a
 * name is read as a token.
 */
export function credentialPlace(scheme: {
  type?: string;
  scheme?: string;
  in?: string;
  name?: string;
}): string {
  if (sandboxCredential(scheme) !== 'clientId' || !scheme.name) return 'header:authorization';
  const location = scheme.in === 'query' || scheme.in === 'cookie' ? scheme.in : 'header';
  return `${location}:${location === 'header' ? scheme.name.toLowerCase() : scheme.name}`;
}

/**
 * Whether a request parameter is sent in a credential's place: the credential replaces it
 * (spinbot.net declares its API key `key` as a required query parameter too).
 */
export function parameterInPlace(parameter: { in: string; name: string }, place: string): boolean {
  const name = parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name;
  return `${parameter.in}:${name}` === place;
}

/**
 * Whether a document's example is a value its schema's `enum` or `const` allows (true when the
 * schema has neither, or is a `$ref` not resolved here). Some documents contradict themselves:
 * Azure's examples name an `api-version` that the parameter's enum does not list, which the
 * sandbox rightly refuses; samples and the try-out then take the schema's own value instead.
 * Scalars compare as text (a query parameter's example may be written as a number).
 */
export function exampleAllowed(schema: unknown, example: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return true;
  const s = schema as { enum?: unknown; const?: unknown };
  const allowed = Array.isArray(s.enum) ? s.enum : 'const' in s ? [s.const] : undefined;
  if (!allowed) return true;
  const key = (v: unknown) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
  return allowed.some((v) => key(v) === key(example));
}

/** One term of a path's pseudo-fragment: a query parameter (or header) the request carries. */
export interface FragmentTerm {
  name: string;
  /** The value it must have; undefined when it only has to be there. */
  value?: string;
}

/**
 * Some documents tell operations of one path apart by a pseudo-fragment, which is no part of the
 * URL a client sends: AWS's '/#Action=AttachInstances' (a query value), S3's '/{Bucket}#notification'
 * (a query key present), '/tags#resourceArn&tagKeys' (several terms), Box's
 * '/files/{file_id}#add_shared_link' (a label no parameter declares). The path without it, and its
 * terms: the sandbox routes on them, the samples and the try-out send them.
 */
export function splitPseudoFragment(template: string): { path: string; terms: FragmentTerm[] } {
  const hash = template.indexOf('#');
  if (hash === -1) return { path: template, terms: [] };
  const terms = template
    .slice(hash + 1)
    .split('&')
    .filter((term) => term !== '' && term !== '=')
    .map((term): FragmentTerm => {
      const eq = term.indexOf('=');
      return eq > 0 ? { name: term.slice(0, eq), value: term.slice(eq + 1) } : { name: term };
    });
  return { path: template.slice(0, hash) || '/', terms };
}

/**
 * Header parameters OpenAPI says to ignore (the request's media types and its credentials): no
 * sample or try-out sends them as parameters, nor as a pseudo-fragment's terms.
 */
export const IGNORED_HEADERS = /^(?:accept|content-type|authorization)$/i;
