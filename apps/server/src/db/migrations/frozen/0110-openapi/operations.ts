/**
 * FROZEN (decision 044): a copy, for migration 0110-bundled-documents only, of apps/server/src/openapi/operations.ts as it was
 * when the migration was frozen (commit 78cc827), less what the migration does not use. Never edit it, whatever the library becomes: a
 * migration that ran must do the same on every database that has not run it yet. It imports only
 * packages and the files of this folder.
 */
import { locateWebhooks } from './webhooks.ts';
import type {
  HttpMethod,
  OperationIndex,
  OperationSummary,
  OperationTagGroup,
  SecuritySchemeSummary,
} from './types.ts';

/** lib/turns.ts runToEnd as it was: the work of a generator, all at once. */
function runToEnd<T>(work: Generator<void, T>): T {
  let step = work.next();
  while (!step.done) step = work.next();
  return step.value;
}

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export const METHODS: readonly HttpMethod[] = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
];

export interface LocatedOperation {
  key: string;
  method: HttpMethod;
  path: string;
  pathItem: Obj;
  operation: Obj;
}

const SAFE_ID = /^[A-Za-z0-9._~-]{1,120}$/;

function slug(method: string, path: string): string {
  const s = `${method}-${path}`
    .replace(/[{}]/g, '')
    .replace(/[^A-Za-z0-9._~-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return s.slice(0, 120) || method;
}

const located = new WeakMap<object, LocatedOperation[]>();

/**
 * The work of locateOperations, pausing (yield) after every path item: the first look at a big
 * stored document's 8,000 operations took 20-50 ms, too long for one turn of the main thread's
 * event loop (locateOperationsInTurns).
 */
function* locating(doc: Obj): Generator<void, LocatedOperation[]> {
  const found: Omit<LocatedOperation, 'key'>[] = [];
  const idCount = new Map<string, number>();
  for (const [path, pathItem] of Object.entries(isObj(doc.paths) ? doc.paths : {})) {
    if (!isObj(pathItem)) continue;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!isObj(operation)) continue;
      found.push({ method, path, pathItem, operation });
      if (typeof operation.operationId === 'string') {
        idCount.set(operation.operationId, (idCount.get(operation.operationId) ?? 0) + 1);
      }
    }
    yield;
  }
  const used = new Set<string>();
  const result: LocatedOperation[] = [];
  for (const f of found) {
    const id = f.operation.operationId;
    let key =
      typeof id === 'string' && SAFE_ID.test(id) && idCount.get(id) === 1 ? id : slug(f.method, f.path);
    if (used.has(key)) {
      let n = 2;
      while (used.has(`${key}-${n}`)) n++;
      key = `${key}-${n}`;
    }
    used.add(key);
    result.push({ ...f, key });
    yield;
  }
  return result;
}

/**
 * Every operation of a document in document order, with a key for deep links: the operationId when
 * it is URL-safe and unique, else method and path ('get-accounts-accountId').
 */
export function locateOperations(doc: Obj): LocatedOperation[] {
  const cached = located.get(doc);
  if (cached) return cached;
  const found = runToEnd(locating(doc));
  located.set(doc, found);
  return found;
}

export type SecurityRequirement = Record<string, string[]>;

export function effectiveSecurity(doc: Obj, operation: Obj): SecurityRequirement[] {
  const own = operation.security ?? doc.security;
  return Array.isArray(own) ? own.filter(isObj).map((r) => r as SecurityRequirement) : [];
}

export function securitySchemes(doc: Obj): Obj {
  const components = isObj(doc.components) ? doc.components : {};
  return isObj(components.securitySchemes) ? components.securitySchemes : {};
}

function scopesOf(doc: Obj, requirement: SecurityRequirement | undefined): string[] {
  if (!requirement) return [];
  const schemes = securitySchemes(doc);
  const scopes = new Set<string>();
  for (const [name, list] of Object.entries(requirement)) {
    const type = isObj(schemes[name]) ? schemes[name].type : undefined;
    if (type !== 'oauth2' && type !== 'openIdConnect' && type !== undefined) continue;
    for (const s of Array.isArray(list) ? list : []) if (typeof s === 'string') scopes.add(s);
  }
  return [...scopes];
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function summarize(doc: Obj, op: LocatedOperation): OperationSummary {
  const security = effectiveSecurity(doc, op.operation);
  const secured = security.length > 0 && !security.some((r) => Object.keys(r).length === 0);
  return {
    key: op.key,
    method: op.method,
    path: op.path,
    summary: str(op.operation.summary),
    operationId: str(op.operation.operationId),
    deprecated: op.operation.deprecated === true,
    secured,
    scopes: secured ? scopesOf(doc, security[0]) : [],
  };
}

export function summarizeSchemes(doc: Obj): SecuritySchemeSummary[] {
  return Object.entries(securitySchemes(doc)).flatMap(([name, s]) => {
    if (!isObj(s)) return [];
    const out: SecuritySchemeSummary = { name, type: String(s.type ?? ''), description: str(s.description) };
    if (typeof s.in === 'string') out.in = s.in;
    if (typeof s.name === 'string') out.paramName = s.name;
    if (typeof s.scheme === 'string') out.scheme = s.scheme;
    if (typeof s.bearerFormat === 'string') out.bearerFormat = s.bearerFormat;
    if (typeof s.openIdConnectUrl === 'string') out.openIdConnectUrl = s.openIdConnectUrl;
    if (isObj(s.flows)) {
      const flows: NonNullable<SecuritySchemeSummary['flows']> = {};
      for (const kind of ['implicit', 'password', 'clientCredentials', 'authorizationCode'] as const) {
        const f = s.flows[kind];
        if (!isObj(f)) continue;
        flows[kind] = {
          ...(typeof f.authorizationUrl === 'string' ? { authorizationUrl: f.authorizationUrl } : {}),
          ...(typeof f.tokenUrl === 'string' ? { tokenUrl: f.tokenUrl } : {}),
          ...(typeof f.refreshUrl === 'string' ? { refreshUrl: f.refreshUrl } : {}),
          scopes: isObj(f.scopes)
            ? Object.fromEntries(Object.entries(f.scopes).map(([k, v]) => [k, String(v)]))
            : {},
        };
      }
      out.flows = flows;
    }
    return [out];
  });
}

/**
 * The compact index the reference page starts from: tag groups in the document's tag order (then
 * in order of first use; untagged operations under 'default'), each with its operations.
 */
export function buildOperationIndex(doc: Obj, alias: string, contentHash: string): OperationIndex {
  const info = isObj(doc.info) ? doc.info : {};
  const declared = Array.isArray(doc.tags) ? doc.tags.filter(isObj) : [];
  const groups = new Map<string, OperationTagGroup>();
  for (const t of declared) {
    if (typeof t.name === 'string' && !groups.has(t.name)) {
      groups.set(t.name, { name: t.name, description: str(t.description), operations: [] });
    }
  }
  const operations = locateOperations(doc);
  for (const op of operations) {
    const tags = Array.isArray(op.operation.tags)
      ? op.operation.tags.filter((t) => typeof t === 'string')
      : [];
    const summary = summarize(doc, op);
    for (const tag of tags.length ? tags : ['default']) {
      let group = groups.get(tag);
      if (!group) {
        group = { name: tag, description: null, operations: [] };
        groups.set(tag, group);
      }
      group.operations.push(summary);
    }
  }
  const servers = Array.isArray(doc.servers)
    ? doc.servers.filter(isObj).flatMap((s) => (typeof s.url === 'string' ? [s.url] : []))
    : [];
  const webhooks = locateWebhooks(doc, new Set(operations.map((o) => o.key))).map((w) => ({
    ...summarize(doc, w),
    webhook: true,
  }));
  return {
    alias,
    title: str(info.title) ?? alias,
    version: str(info.version),
    description: str(info.description),
    servers,
    contentHash,
    operationCount: operations.length,
    tags: [...groups.values()].filter((g) => g.operations.length > 0),
    securitySchemes: summarizeSchemes(doc),
    webhooks,
    webhookCount: webhooks.length,
  };
}
