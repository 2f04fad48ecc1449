/**
 * A new version of an API uploaded from the provider console as a draft (issue 27, decision 047):
 * what changed against the published version, the operations and scopes to review, and the
 * changelog text the summary pre-fills.
 */

/** One change found in an operation (or the operation itself added or removed). */
export type ApiChangeCode =
  | 'operationAdded'
  | 'operationRemoved'
  | 'operationDeprecated'
  | 'parameterAdded'
  | 'requiredParameterAdded'
  | 'parameterRemoved'
  | 'parameterNowRequired'
  | 'parameterTypeChanged'
  | 'parameterEnumNarrowed'
  | 'requestBodyNowRequired'
  | 'requestFieldNowRequired'
  | 'requestFieldTypeChanged'
  | 'requestEnumNarrowed'
  | 'responseRemoved'
  | 'responseFieldRemoved'
  | 'responseFieldTypeChanged'
  | 'scopeAdded';

export interface ApiChange {
  code: ApiChangeCode;
  breaking: boolean;
  /** The change in words (messages/console-apis.ts `changes`). */
  text: string;
}

export interface OperationChanges {
  /** 'GET /pets/{petId}': as the gateway records calls (api_calls.endpoint). */
  endpoint: string;
  method: string;
  path: string;
  summary: string | null;
  breaking: boolean;
  changes: ApiChange[];
}

export interface ApiChangeSummary {
  added: OperationChanges[];
  removed: OperationChanges[];
  changed: OperationChanges[];
  breakingCount: number;
}

export interface DraftOperation {
  endpoint: string;
  method: string;
  path: string;
  summary: string | null;
  deprecated: boolean;
  scopes: string[];
}

export interface DraftScope {
  scope: string;
  /** The draft's operations that ask for it. */
  endpoints: string[];
  /** Not asked for by the published version. */
  added: boolean;
}

export interface ApiDraft {
  id: string;
  alias: string;
  title: string;
  product: { alias: string; title: string | null };
  status: 'draft' | 'published';
  fromVersion: string | null;
  toVersion: string | null;
  sourceSpecVersion: string;
  filename: string | null;
  createdAt: string;
  publishedAt: string | null;
  summary: ApiChangeSummary;
  operations: DraftOperation[];
  scopes: DraftScope[];
  /** What the changelog entry starts from. */
  changelogText: string;
}

export interface ApiListItem {
  alias: string;
  title: string;
  version: string | null;
  operationCount: number | null;
  product: { alias: string; title: string } | null;
  /** The product's changelog versions, newest first. */
  versions: { version: string; releaseDate: string | null }[];
  drafts: { id: string; toVersion: string | null; status: 'draft' | 'published'; createdAt: string }[];
}

export interface NoticeAudience {
  applications: number;
  organizations: number;
  /** The breaking operations whose callers it reaches. */
  endpoints: string[];
}

export interface NoticeSent extends NoticeAudience {
  recipients: number;
}

/** A notice on an application's page (GET /api/applications/:id/notices). */
export interface ApplicationNotice {
  id: string;
  apiTitle: string;
  apiAlias: string;
  text: string;
  endpoints: string[];
  createdAt: string;
}

export const NOTICE_TEXT_MAX = 5000;
export const CHANGELOG_TEXT_MAX = 20000;
