import type {
  ApiChange,
  ApiChangeCode,
  ApiChangeSummary,
  DraftOperation,
  DraftScope,
  OperationChanges,
} from '@portico/contracts/api-drafts';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { followRefs } from './document.ts';
import { isObj, locateOperations, summarize, type LocatedOperation, type Obj } from './operations.ts';

const M = en.console.apis.changes;

/** How deep schemas are compared (a property of a property of ...): deeper changes are not looked for. */
const MAX_DEPTH = 8;
/** `$ref` hops followed for one schema. */
const REF_HOPS = 20;

/**
 * What changed between two converted documents (OpenAPI 3.1, bundled, as the importer stores them;
 * `before` null for a new API): operations added, removed and changed, each change marked breaking
 * when a client written for `before` can fail against `after` (decision 047). Operations match by
 * method and path template, whatever their parameters are called. `$ref`s are followed in each
 * document as the comparison reaches them, so cyclic schemas are compared up to MAX_DEPTH.
 */
export function compareDocuments(before: Obj | null, after: Obj): ApiChangeSummary {
  const oldOps = new Map((before ? locateOperations(before) : []).map((op) => [matchKey(op), op] as const));
  const newOps = new Map(locateOperations(after).map((op) => [matchKey(op), op] as const));
  const added: OperationChanges[] = [];
  const removed: OperationChanges[] = [];
  const changed: OperationChanges[] = [];
  for (const [key, op] of newOps) {
    if (!oldOps.has(key)) added.push(entry(op, [change('operationAdded', false, {})]));
  }
  for (const [key, op] of oldOps) {
    const next = newOps.get(key);
    if (!next) {
      removed.push(entry(op, [change('operationRemoved', true, {})]));
      continue;
    }
    const changes = compareOperation(before!, op, after, next);
    if (changes.length) changed.push(entry(next, changes));
  }
  const breakingCount = [...removed, ...changed].reduce(
    (n, op) => n + op.changes.filter((c) => c.breaking).length,
    0,
  );
  return { added, removed, changed, breakingCount };
}

/** The operations of a document as the review lists them, with the scopes each asks for. */
export function draftOperations(doc: Obj): DraftOperation[] {
  return locateOperations(doc).map((op) => {
    const s = summarize(doc, op);
    return {
      endpoint: endpointOf(op),
      method: op.method.toUpperCase(),
      path: op.path,
      summary: s.summary,
      deprecated: s.deprecated,
      scopes: s.scopes,
    };
  });
}

/** Every scope the draft's operations ask for, with the operations and whether it is new. */
export function draftScopes(before: Obj | null, operations: DraftOperation[]): DraftScope[] {
  const known = new Set(before ? draftOperations(before).flatMap((op) => op.scopes) : []);
  const byScope = new Map<string, string[]>();
  for (const op of operations) {
    for (const scope of op.scopes) byScope.set(scope, [...(byScope.get(scope) ?? []), op.endpoint]);
  }
  return [...byScope.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([scope, endpoints]) => ({ scope, endpoints, added: !known.has(scope) }));
}

/** 'GET /pets/{petId}': what the gateway records as a call's endpoint (gateway/recorder.ts). */
export function endpointOf(op: { method: string; path: string }): string {
  return `${op.method.toUpperCase()} ${op.path}`;
}

const matchKey = (op: LocatedOperation) => `${op.method} ${op.path.replace(/\{[^}]*\}/g, '{}')}`;

function entry(op: LocatedOperation, changes: ApiChange[]): OperationChanges {
  return {
    endpoint: endpointOf(op),
    method: op.method.toUpperCase(),
    path: op.path,
    summary: typeof op.operation.summary === 'string' ? op.operation.summary : null,
    breaking: changes.some((c) => c.breaking),
    changes,
  };
}

function change(code: ApiChangeCode, breaking: boolean, values: Record<string, string>): ApiChange {
  return { code, breaking, text: format(M[code], values) };
}

function compareOperation(a: Obj, oldOp: LocatedOperation, b: Obj, newOp: LocatedOperation): ApiChange[] {
  const out: ApiChange[] = [];
  if (newOp.operation.deprecated === true && oldOp.operation.deprecated !== true) {
    out.push(change('operationDeprecated', false, {}));
  }
  compareParameters(a, oldOp, b, newOp, out);
  compareRequestBody(a, oldOp.operation.requestBody, b, newOp.operation.requestBody, out);
  compareResponses(a, oldOp.operation.responses, b, newOp.operation.responses, out);
  const oldScopes = new Set(summarize(a, oldOp).scopes);
  for (const scope of summarize(b, newOp).scopes) {
    if (!oldScopes.has(scope)) out.push(change('scopeAdded', true, { scope }));
  }
  return out;
}

/** The operation's parameters with the path item's, by `in` and name (the operation's win). */
function parametersOf(doc: Obj, op: LocatedOperation): Map<string, Obj> {
  const params = new Map<string, Obj>();
  for (const list of [op.pathItem.parameters, op.operation.parameters]) {
    for (const raw of Array.isArray(list) ? list : []) {
      const p = followRefs(doc, raw, REF_HOPS);
      if (!p || typeof p.name !== 'string' || typeof p.in !== 'string') continue;
      // Path parameters match by position, whatever they are called: the template matched already.
      const name = p.in === 'path' ? pathParamKey(op.path, p.name) : p.name;
      params.set(`${p.in}\n${name}`, p);
    }
  }
  return params;
}

function pathParamKey(path: string, name: string): string {
  const names = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  const at = names.indexOf(name);
  return at >= 0 ? `#${at}` : name;
}

function compareParameters(
  a: Obj,
  oldOp: LocatedOperation,
  b: Obj,
  newOp: LocatedOperation,
  out: ApiChange[],
) {
  const before = parametersOf(a, oldOp);
  const after = parametersOf(b, newOp);
  for (const [key, p] of after) {
    const values = { name: String(p.name), in: String(p.in) };
    const old = before.get(key);
    if (!old) {
      out.push(
        p.required === true
          ? change('requiredParameterAdded', true, values)
          : change('parameterAdded', false, values),
      );
      continue;
    }
    if (p.required === true && old.required !== true) out.push(change('parameterNowRequired', true, values));
    const oldSchema = followRefs(a, old.schema, REF_HOPS);
    const newSchema = followRefs(b, p.schema, REF_HOPS);
    const narrowed = narrowedTypes(oldSchema, newSchema);
    if (narrowed) out.push(change('parameterTypeChanged', true, { ...values, ...narrowed }));
    const gone = removedEnumValues(oldSchema, newSchema);
    if (gone) out.push(change('parameterEnumNarrowed', true, { ...values, values: gone }));
  }
  for (const [key, p] of before) {
    if (!after.has(key))
      out.push(change('parameterRemoved', false, { name: String(p.name), in: String(p.in) }));
  }
}

/** The schema of a request body or response for the media type both sides have (JSON first). */
function schemasOf(doc: Obj, holder: unknown): Map<string, unknown> {
  const resolved = followRefs(doc, holder, REF_HOPS);
  const content = resolved && isObj(resolved.content) ? resolved.content : {};
  const out = new Map<string, unknown>();
  for (const [type, media] of Object.entries(content)) if (isObj(media)) out.set(type, media.schema);
  return out;
}

function commonSchemas(a: Obj, x: unknown, b: Obj, y: unknown): [unknown, unknown] | undefined {
  const before = schemasOf(a, x);
  const after = schemasOf(b, y);
  const common = [...before.keys()].filter((t) => after.has(t));
  const type = common.find((t) => /json/i.test(t)) ?? common[0];
  return type === undefined ? undefined : [before.get(type), after.get(type)];
}

function compareRequestBody(a: Obj, oldBody: unknown, b: Obj, newBody: unknown, out: ApiChange[]) {
  const before = followRefs(a, oldBody, REF_HOPS);
  const after = followRefs(b, newBody, REF_HOPS);
  if (!after) return;
  if (after.required === true && before?.required !== true)
    out.push(change('requestBodyNowRequired', true, {}));
  if (!before) return;
  const pair = commonSchemas(a, before, b, after);
  if (pair) compareRequestSchema(a, pair[0], b, pair[1], '', out, 0, new Set());
}

function compareResponses(a: Obj, oldResponses: unknown, b: Obj, newResponses: unknown, out: ApiChange[]) {
  const before = isObj(oldResponses) ? oldResponses : {};
  const after = isObj(newResponses) ? newResponses : {};
  for (const [status, response] of Object.entries(before)) {
    if (!(status in after)) {
      // A success a client relies on is gone; an error answer dropped breaks nobody.
      out.push(change('responseRemoved', /^2/.test(status), { status }));
      continue;
    }
    const pair = commonSchemas(a, response, b, after[status]);
    if (pair) compareResponseSchema(a, pair[0], b, pair[1], status, '', out, 0, new Set());
  }
}

/** A schema with its `$ref`s followed and its `allOf` members' properties and required merged. */
function flat(doc: Obj, schema: unknown): Obj | undefined {
  const s = followRefs(doc, schema, REF_HOPS);
  if (!s || !Array.isArray(s.allOf)) return s;
  const properties: Obj = { ...(isObj(s.properties) ? s.properties : {}) };
  const required = new Set<string>(Array.isArray(s.required) ? s.required.map(String) : []);
  let type = s.type;
  for (const member of s.allOf) {
    const m = followRefs(doc, member, REF_HOPS);
    if (!m) continue;
    if (isObj(m.properties)) Object.assign(properties, m.properties);
    if (Array.isArray(m.required)) for (const r of m.required) required.add(String(r));
    type ??= m.type;
  }
  return { ...s, ...(type !== undefined ? { type } : {}), properties, required: [...required] };
}

/** The types a schema allows, or undefined when it says none (any). */
function typesOf(s: Obj | undefined): Set<string> | undefined {
  if (!s) return undefined;
  if (typeof s.type === 'string') return new Set([s.type === 'integer' ? 'integer' : s.type]);
  if (Array.isArray(s.type)) return new Set(s.type.map(String));
  return undefined;
}

const typeText = (types: Set<string> | undefined) => (types ? [...types].join(' | ') : 'any');

/** For input: the new schema no longer allows a type the old one did (integer within number). */
function narrowedTypes(
  before: Obj | undefined,
  after: Obj | undefined,
): { from: string; to: string } | undefined {
  const a = typesOf(before);
  const b = typesOf(after);
  if (!b) return undefined;
  const allows = (t: string) => b.has(t) || (t === 'integer' && b.has('number'));
  if (a && [...a].every(allows)) return undefined;
  return { from: typeText(a), to: typeText(b) };
}

/** For input: enum values the old schema accepted and the new one does not, quoted and joined. */
function removedEnumValues(before: Obj | undefined, after: Obj | undefined): string | undefined {
  if (!before || !after || !Array.isArray(after.enum)) return undefined;
  const allowed = new Set(after.enum.map((v) => JSON.stringify(v)));
  const old = Array.isArray(before.enum) ? before.enum : undefined;
  if (!old) return undefined;
  const gone = old.map((v) => JSON.stringify(v)).filter((v) => !allowed.has(v));
  return gone.length ? gone.join(', ') : undefined;
}

const fieldName = (prefix: string, name: string) => (prefix ? `${prefix}.${name}` : name);

function compareRequestSchema(
  a: Obj,
  x: unknown,
  b: Obj,
  y: unknown,
  field: string,
  out: ApiChange[],
  depth: number,
  seen: Set<string>,
) {
  const before = flat(a, x);
  const after = flat(b, y);
  if (!before || !after || depth > MAX_DEPTH) return;
  if (alreadyCompared(x, y, seen)) return;
  const label = field || '(body)';
  const narrowed = narrowedTypes(before, after);
  if (narrowed) out.push(change('requestFieldTypeChanged', true, { field: label, ...narrowed }));
  const gone = removedEnumValues(before, after);
  if (gone) out.push(change('requestEnumNarrowed', true, { field: label, values: gone }));
  const oldRequired = new Set(Array.isArray(before.required) ? before.required.map(String) : []);
  for (const name of Array.isArray(after.required) ? after.required.map(String) : []) {
    if (!oldRequired.has(name))
      out.push(change('requestFieldNowRequired', true, { field: fieldName(field, name) }));
  }
  const oldProps = isObj(before.properties) ? before.properties : {};
  const newProps = isObj(after.properties) ? after.properties : {};
  for (const [name, schema] of Object.entries(newProps)) {
    if (name in oldProps) {
      compareRequestSchema(a, oldProps[name], b, schema, fieldName(field, name), out, depth + 1, seen);
    }
  }
  if (before.items !== undefined && after.items !== undefined) {
    compareRequestSchema(a, before.items, b, after.items, `${field}[]`, out, depth + 1, seen);
  }
}

function compareResponseSchema(
  a: Obj,
  x: unknown,
  b: Obj,
  y: unknown,
  status: string,
  field: string,
  out: ApiChange[],
  depth: number,
  seen: Set<string>,
) {
  const before = flat(a, x);
  const after = flat(b, y);
  if (!before || !after || depth > MAX_DEPTH) return;
  if (alreadyCompared(x, y, seen)) return;
  const oldTypes = typesOf(before);
  const newTypes = typesOf(after);
  if (field && oldTypes && newTypes && typeText(oldTypes) !== typeText(newTypes)) {
    out.push(
      change('responseFieldTypeChanged', true, {
        status,
        field,
        from: typeText(oldTypes),
        to: typeText(newTypes),
      }),
    );
    return;
  }
  const oldProps = isObj(before.properties) ? before.properties : {};
  const newProps = isObj(after.properties) ? after.properties : {};
  for (const [name, schema] of Object.entries(oldProps)) {
    if (!(name in newProps)) {
      out.push(change('responseFieldRemoved', true, { status, field: fieldName(field, name) }));
      continue;
    }
    compareResponseSchema(a, schema, b, newProps[name], status, fieldName(field, name), out, depth + 1, seen);
  }
  if (before.items !== undefined && after.items !== undefined) {
    compareResponseSchema(a, before.items, b, after.items, status, `${field}[]`, out, depth + 1, seen);
  }
}

/**
 * Whether these two referenced schemas were compared already in this operation: each pair of
 * components once, so a cyclic or widely shared schema costs its size, not its paths' number.
 * Inline schemas are trees (only references make cycles) and are always compared.
 */
function alreadyCompared(x: unknown, y: unknown, seen: Set<string>): boolean {
  if (!isObj(x) || !isObj(y) || typeof x.$ref !== 'string' || typeof y.$ref !== 'string') return false;
  const key = `${x.$ref}\n${y.$ref}`;
  if (seen.has(key)) return true;
  seen.add(key);
  return false;
}
