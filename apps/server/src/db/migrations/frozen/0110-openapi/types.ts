/**
 * FROZEN (decision 044): a copy, for migration 0110-bundled-documents only, of the types of packages/contracts/src/catalog.ts it uses as it was
 * when the migration was frozen (commit 78cc827), less what the migration does not use. Never edit it, whatever the library becomes: a
 * migration that ran must do the same on every database that has not run it yet. It imports only
 * packages and the files of this folder.
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
}

/** A problem of an imported OpenAPI document: a JSON pointer into it, and the line when known. */
export interface DocumentProblem {
  path: string;
  message: string;
  line?: number;
  column?: number;
}
