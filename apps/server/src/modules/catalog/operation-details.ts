import type {
  JsonSchema,
  MediaTypeDetail,
  OperationDetail,
  ParameterDetail,
  RequestBodyDetail,
  ResponseDetail,
  SecurityRequirementDetail,
} from '@portico/contracts/catalog';
import { resolvePointer } from '../../openapi/document.ts';
import {
  effectiveSecurity,
  isObj,
  locateOperations,
  locateOperationsInTurns,
  securitySchemes,
  summarize,
  type LocatedOperation,
  type Obj,
} from '../../openapi/operations.ts';
import { codeSamples } from '../../openapi/samples.ts';
import { operationSlice } from '../../openapi/slice.ts';
import { locateWebhooks } from '../../openapi/webhooks.ts';

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const schemaOf = (v: unknown): JsonSchema | null =>
  isObj(v) || typeof v === 'boolean' ? (v as JsonSchema) : null;

function mediaTypes(content: unknown): Record<string, MediaTypeDetail> {
  const out: Record<string, MediaTypeDetail> = {};
  for (const [type, media] of Object.entries(isObj(content) ? content : {})) {
    if (!isObj(media)) continue;
    const detail: MediaTypeDetail = { schema: schemaOf(media.schema) };
    if ('example' in media) detail.example = media.example;
    if (isObj(media.examples)) {
      detail.examples = {};
      for (const [name, ex] of Object.entries(media.examples)) {
        if (!isObj(ex)) continue;
        detail.examples[name] = {
          ...(typeof ex.summary === 'string' ? { summary: ex.summary } : {}),
          ...(typeof ex.description === 'string' ? { description: ex.description } : {}),
          ...('value' in ex ? { value: ex.value } : {}),
        };
      }
    }
    out[type] = detail;
  }
  return out;
}

function parameters(op: LocatedOperation): ParameterDetail[] {
  // Operation parameters override path-item parameters with the same name and location.
  const byKey = new Map<string, Obj>();
  for (const list of [op.pathItem.parameters, op.operation.parameters]) {
    for (const p of Array.isArray(list) ? list : []) {
      if (isObj(p) && typeof p.name === 'string' && typeof p.in === 'string')
        byKey.set(`${p.in}:${p.name}`, p);
    }
  }
  return [...byKey.values()].map((p) => {
    let schema = schemaOf(p.schema);
    // A parameter described by `content` instead of `schema`: use the first media type's schema.
    if (!schema && isObj(p.content)) {
      const first = Object.values(p.content)[0];
      schema = isObj(first) ? schemaOf(first.schema) : null;
    }
    const detail: ParameterDetail = {
      name: p.name as string,
      in: p.in as ParameterDetail['in'],
      required: p.required === true || p.in === 'path',
      deprecated: p.deprecated === true,
      description: str(p.description),
      schema,
    };
    if (typeof p.style === 'string') detail.style = p.style;
    if (typeof p.explode === 'boolean') detail.explode = p.explode;
    if ('example' in p) detail.example = p.example;
    if (isObj(p.examples)) {
      detail.examples = Object.fromEntries(
        Object.entries(p.examples).map(([k, v]) => [k, isObj(v) && 'value' in v ? v.value : v]),
      );
    }
    return detail;
  });
}

function requestBody(op: LocatedOperation): RequestBodyDetail | null {
  const body = op.operation.requestBody;
  if (!isObj(body)) return null;
  return {
    description: str(body.description),
    required: body.required === true,
    content: mediaTypes(body.content),
  };
}

function responses(op: LocatedOperation): ResponseDetail[] {
  const all = isObj(op.operation.responses) ? op.operation.responses : {};
  return Object.entries(all)
    .filter(([, r]) => isObj(r))
    .map(([status, r]) => {
      const res = r as Obj;
      const headers: ResponseDetail['headers'] = {};
      for (const [name, h] of Object.entries(isObj(res.headers) ? res.headers : {})) {
        if (isObj(h)) headers[name] = { description: str(h.description), schema: schemaOf(h.schema) };
      }
      return { status, description: str(res.description), headers, content: mediaTypes(res.content) };
    })
    .sort((a, b) => a.status.localeCompare(b.status));
}

function security(doc: Obj, op: LocatedOperation): SecurityRequirementDetail[] {
  const schemes = securitySchemes(doc);
  const reqs = effectiveSecurity(doc, op.operation);
  if (reqs.some((r) => Object.keys(r).length === 0)) return [];
  return reqs.map((r) =>
    Object.entries(r).map(([scheme, scopes]) => ({
      scheme,
      type: isObj(schemes[scheme]) ? String(schemes[scheme].type ?? '') : '',
      scopes: Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : [],
    })),
  );
}

/** The targets of the `$ref`s left in `value` (circular schemas), transitively. */
function collectRefs(doc: Obj, value: unknown): Record<string, JsonSchema> {
  const refs: Record<string, JsonSchema> = {};
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (isObj(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#') && !(node.$ref in refs)) {
      const target = resolvePointer(doc, node.$ref);
      if (isObj(target) || typeof target === 'boolean') {
        refs[node.$ref] = target as JsonSchema;
        stack.push(target);
      }
    }
    for (const v of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof v === 'object' && v !== null) stack.push(v);
    }
  }
  return refs;
}

function firstSuccessType(list: ResponseDetail[]): string | null {
  const ok = list.find((r) => /^2/.test(r.status)) ?? list.find((r) => r.status === 'default');
  const types = ok ? Object.keys(ok.content) : [];
  return types.find((t) => /json/i.test(t)) ?? types[0] ?? null;
}

/**
 * Everything the reference shows for one operation or webhook, with request samples. `bundled` is
 * a stored (bundled) document: the operation is worked out on its dereferenced slice (slice.ts),
 * so only what it needs is resolved.
 */
export async function operationDetail(bundled: Obj, key: string): Promise<OperationDetail | undefined> {
  const target = detailTarget(bundled, key);
  if (!target) return undefined;
  const doc = await operationSlice(
    bundled,
    target.method,
    target.path,
    target.webhook ? 'webhooks' : 'paths',
  );
  return detailOfSlice(doc, target);
}

/** Where the operation or webhook of a key is in a stored document, and its key. */
export interface DetailTarget {
  key: string;
  method: string;
  path: string;
  webhook: boolean;
}

/** The operation or webhook of `key` in a stored (bundled) document, or undefined. */
export function detailTarget(bundled: Obj, key: string): DetailTarget | undefined {
  return targetAmong(bundled, locateOperations(bundled), key);
}

/** detailTarget on the server's main thread, its operations located in turns (a big document's). */
export async function detailTargetInTurns(bundled: Obj, key: string): Promise<DetailTarget | undefined> {
  return targetAmong(bundled, await locateOperationsInTurns(bundled), key);
}

function targetAmong(bundled: Obj, operations: LocatedOperation[], key: string): DetailTarget | undefined {
  let found = operations.find((o) => o.key === key);
  const webhook = !found;
  found ??= locateWebhooks(bundled, new Set(operations.map((o) => o.key))).find((o) => o.key === key);
  return found && { key, method: found.method, path: found.path, webhook };
}

/** operationDetail's answer from the target's dereferenced slice (operationSlice). */
export function detailOfSlice(doc: Obj, target: DetailTarget): OperationDetail | undefined {
  const { key, webhook } = target;
  const inSlice = (webhook ? locateWebhooks(doc, new Set()) : locateOperations(doc)).find(
    (o) => o.method === target.method && o.path === target.path,
  );
  if (!inSlice) return undefined;
  // The key is the whole document's (an operationId unique in the slice may not be in the document).
  const op: LocatedOperation = { ...inSlice, key };
  const servers = Array.isArray(doc.servers) ? doc.servers.filter(isObj) : [];
  const server = typeof servers[0]?.url === 'string' ? servers[0].url : '';
  const params = parameters(op);
  const body = requestBody(op);
  const res = responses(op);
  const sec = security(doc, op);
  const detail: OperationDetail = {
    ...summarize(doc, op),
    ...(webhook ? { webhook: true } : {}),
    description: str(op.operation.description),
    tags: Array.isArray(op.operation.tags)
      ? op.operation.tags.filter((t): t is string => typeof t === 'string')
      : [],
    server,
    parameters: params,
    requestBody: body,
    responses: res,
    security: sec,
    // A webhook is a request the API sends: no sample of calling it.
    samples: webhook
      ? []
      : codeSamples(
          {
            method: op.method,
            server,
            path: op.path,
            parameters: params,
            requestBody: body,
            security: sec,
            accept: firstSuccessType(res),
            schemes: securitySchemes(doc),
          },
          doc,
        ),
    refs: {},
  };
  detail.refs = collectRefs(doc, [params, body, res]);
  return detail;
}
