import { splitPseudoFragment, type FragmentTerm } from '@portico/contracts/catalog';
import { parseCookie } from 'cookie';
import { SLICE_MS, timeSlices } from '../lib/turns.ts';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { anchorRefs, newAjv, parameterSchema } from './ajv.ts';
import {
  HTTP_METHODS,
  followRefs,
  isObject,
  type JsonSchema,
  type OpenApiDocument,
  type Operation,
  type Parameter,
  type SecurityRequirement,
} from '../openapi/document.ts';
import { RouteIndex } from './route-index.ts';
import { evaluateStandalone } from './standalone.ts';
import type { ValidatorCode } from './validator-code.ts';

/**
 * One imported API made ready for the sandbox: a router from method and path to operation, and
 * request validators (Ajv, JSON Schema 2020-12, see ajv.ts). In the gateway the validators of an
 * operation come generated from a worker (`adopt`, decision 032); anything else is compiled here
 * on first use (a fallback, and what tests and benchmarks use directly).
 */

export interface MatchedOperation {
  method: string;
  /** The documented path template, e.g. '/accounts/{accountId}'. */
  template: string;
  operation: Operation;
  pathParams: Record<string, string>;
  /** Path-item and operation parameters merged (the operation's win). */
  parameters: Parameter[];
  security: SecurityRequirement[];
  compiled: CompiledOperation;
}

interface Route {
  method: string;
  template: string;
  /** The template's path, without a pseudo-fragment ('/' when it had none). */
  pathPart: string;
  regex: RegExp;
  names: string[];
  literalLength: number;
  /** A pseudo-fragment's terms ('/#Action=AttachInstances', '/{Bucket}#notification'), all needed. */
  fragment: FragmentTerm[];
  operation: Operation;
  parameters: Parameter[];
  compiled: CompiledOperation;
}

/** What of the request tells operations of one path apart (pseudo-fragments, see Route). */
export interface RequestDiscriminators {
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
}

/** Whether the request carries every term: in its query, or as a header. */
function discriminated(terms: FragmentTerm[], request: RequestDiscriminators | undefined) {
  if (terms.length === 0) return true;
  if (!request) return false;
  return terms.every(({ name, value }) => {
    const raw = request.headers[name.toLowerCase()];
    const header = Array.isArray(raw) ? raw[0] : raw;
    if (value === undefined) return request.query.has(name) || header !== undefined;
    return request.query.get(name) === value || header === value;
  });
}

export interface ValidationFailure {
  status: 400 | 415;
  description: string;
  parameter: string;
  pointer?: string;
}

interface CompiledOperation {
  /** null: the schema could not be compiled, the value is not validated. */
  params?: Map<Parameter, ValidateFunction | null>;
  body?: Map<string, ValidateFunction | null>;
}

export const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function mergeParameters(pathItem: Record<string, unknown>, operation: Operation): Parameter[] {
  const merged = new Map<string, Parameter>();
  const add = (list: unknown) => {
    if (!Array.isArray(list)) return;
    for (const p of list) {
      if (isObject(p) && typeof p.name === 'string' && typeof p.in === 'string') {
        merged.set(`${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`, p as unknown as Parameter);
      }
    }
  };
  add(pathItem.parameters);
  add(operation.parameters);
  return [...merged.values()];
}

function describeError(error: ErrorObject): string {
  const base = error.message ?? 'is invalid';
  const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
  return allowed ? `${base}: ${allowed.map((v) => JSON.stringify(v)).join(', ')}` : base;
}

const mediaBase = (type: string) => type.split(';')[0]!.trim().toLowerCase();
export const isJsonMedia = (type: string) => /^application\/(.+\+)?json$/.test(mediaBase(type));

function mediaMatches(documented: string, actual: string): boolean {
  const d = mediaBase(documented);
  if (d === '*/*' || d === actual) return true;
  if (d.endsWith('/*')) return actual.startsWith(d.slice(0, -1));
  return false;
}

/** The object at a path of keys from the document's root (own properties only). */
function placeIn(doc: unknown, at: { path: string[] }): object | undefined {
  let node: unknown = doc;
  for (const key of at.path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'object' && node !== null ? node : undefined;
}

export interface IncomingRequest {
  method: string;
  /** Path after /sandbox/<alias>, still percent-encoded. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  contentType: string | undefined;
  /** The raw body, when one was sent. */
  body: Buffer | undefined;
}

export class CompiledApi {
  readonly doc: OpenApiDocument;
  private readonly routes = new RouteIndex<Route>();
  private readonly basePaths: string[];
  private paramsAjv: Ajv2020 | undefined;
  private bodyAjv: Ajv2020 | undefined;
  private readonly checks = new WeakMap<object, ValidateFunction | null>();
  /** Validators generated in a worker (adopt): by Parameter object, by schema object, by JSON text. */
  private readonly adopted = {
    params: new WeakMap<object, ValidateFunction | null>(),
    schemas: new WeakMap<object, ValidateFunction | null>(),
    texts: new Map<string, ValidateFunction | null>(),
  };

  /**
   * Whether a value is valid for a schema of this document (for generated answers; see
   * SchemaCheck in mock.ts). A schema Ajv cannot compile accepts everything.
   */
  readonly check = (schema: JsonSchema, value: unknown): boolean => {
    if (typeof schema === 'boolean') return schema;
    let validate = this.checks.get(schema);
    if (validate === undefined) {
      validate = this.adoptedSchema(schema);
      if (validate === undefined) {
        this.bodyAjv ??= newAjv(this.doc, false);
        try {
          validate = this.bodyAjv.compile(anchorRefs(schema) as object);
        } catch {
          validate = null;
        }
      }
      this.checks.set(schema, validate);
    }
    return validate ? validate(value) : true;
  };

  /**
   * Takes the validators generated for this document's operation in a worker
   * (validator-code.ts): evaluates their code and files each under its parameter or schema, found
   * at the same place in this document. Logs the schemas that cannot be compiled, as the compile
   * on first use does. `between` gives the event loop a turn after each module.
   */
  async adopt(code: ValidatorCode, between?: () => Promise<unknown>): Promise<void> {
    const modules: Record<'param' | 'schema', Record<string, ValidateFunction>> = { param: {}, schema: {} };
    for (const kind of ['param', 'schema'] as const) {
      for (const module of code.modules[kind]) {
        Object.assign(modules[kind], evaluateStandalone(module));
        await between?.();
      }
    }
    for (const entry of code.entries) {
      if (entry.problem) this.onSchemaError?.(entry.problem.what, new Error(entry.problem.message));
      const validate = entry.exportName ? modules[entry.kind][entry.exportName] : null;
      // An export the module lacks is left to the compile on first use, never unvalidated.
      if (validate === undefined) continue;
      if ('text' in entry.at) {
        if (entry.kind === 'schema') this.adopted.texts.set(entry.at.text, validate);
        continue;
      }
      const node = placeIn(this.doc, entry.at);
      if (node) this.adopted[entry.kind === 'param' ? 'params' : 'schemas'].set(node, validate);
    }
  }

  /** The adopted validator of a schema; undefined when none was generated for it. */
  private adoptedSchema(schema: object): ValidateFunction | null | undefined {
    const validate = this.adopted.schemas.get(schema);
    if (validate !== undefined || !this.adopted.texts.size) return validate;
    return this.adopted.texts.get(JSON.stringify(schema));
  }

  /** Told about schemas of the document that cannot be compiled. */
  onSchemaError: ((what: string, err: unknown) => void) | undefined;

  constructor(
    doc: OpenApiDocument,
    onSchemaError?: (what: string, err: unknown) => void,
    /** 'later': the routes are added by CompiledApi.router, a slice of the paths at a time. */
    routes: 'now' | 'later' = 'now',
  ) {
    this.doc = doc;
    this.onSchemaError = onSchemaError;
    if (routes === 'now') {
      for (const [template, item] of Object.entries(doc.paths ?? {})) this.addPath(template, item);
    }
    // Requests may include the path of the documented server URL ('/v1/accounts').
    this.basePaths = [];
    for (const server of doc.servers ?? []) {
      try {
        const base = new URL(server.url ?? '', 'http://sandbox.invalid').pathname.replace(/\/$/, '');
        if (base && !this.basePaths.includes(base)) this.basePaths.push(base);
      } catch {
        // A server URL with unresolved variables: no base path to strip.
      }
    }
  }

  /**
   * The router of a whole (big) document, built with a turn of the event loop after every
   * `sliceMs` of work: GitHub's 1,200 operations take 5-10 ms, 8,000 take 50 ms.
   */
  static async router(doc: OpenApiDocument, sliceMs = SLICE_MS): Promise<CompiledApi> {
    const api = new CompiledApi(doc, undefined, 'later');
    const breathe = timeSlices(sliceMs);
    for (const [template, item] of Object.entries(doc.paths ?? {})) {
      api.addPath(template, item);
      await breathe();
    }
    return api;
  }

  private addPath(template: string, item: unknown): void {
    if (!isObject(item)) return;
    const names: string[] = [];
    const { path: pathPart, terms: fragment } = splitPseudoFragment(template);
    const pattern = pathPart
      .split(/(\{[^}]+\})/)
      .map((part) => {
        const m = /^\{([^}]+)\}$/.exec(part);
        if (!m) return escapeRegex(part);
        names.push(m[1]!);
        return '([^/]+)';
      })
      .join('');
    const regex = new RegExp(`^${pattern}/?$`);
    const literalLength = template.replace(/\{[^}]+\}/g, '').length;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const op = operation as Operation;
      this.routes.add({
        method: method.toUpperCase(),
        template,
        pathPart,
        regex,
        names,
        literalLength,
        fragment,
        operation: op,
        parameters: mergeParameters(item, op),
        compiled: {},
      });
    }
  }

  /** The operation for a method and path, 'method' when only the method is wrong, or undefined. */
  match(
    method: string,
    rawPath: string,
    request?: RequestDiscriminators,
  ): MatchedOperation | { allowed: string[] } | undefined {
    const candidates = [rawPath || '/'];
    for (const base of this.basePaths) {
      if (rawPath.startsWith(`${base}/`) || rawPath === base)
        candidates.push(rawPath.slice(base.length) || '/');
    }
    const allowed = new Set<string>();
    const wanted = method === 'HEAD' ? ['HEAD', 'GET'] : [method];
    for (const path of candidates) {
      for (const route of this.routes.candidates(path)) {
        const m = route.regex.exec(path);
        if (!m || !discriminated(route.fragment, request)) continue;
        if (!wanted.includes(route.method)) {
          allowed.add(route.method);
          continue;
        }
        const pathParams: Record<string, string> = {};
        let bad = false;
        route.names.forEach((name, i) => {
          try {
            pathParams[name] = decodeURIComponent(m[i + 1]!);
          } catch {
            bad = true;
          }
        });
        if (bad) continue;
        return {
          method: route.method,
          template: route.template,
          operation: route.operation,
          pathParams,
          parameters: route.parameters,
          security: route.operation.security ?? this.doc.security ?? [],
          compiled: route.compiled,
        };
      }
      if (allowed.size) return { allowed: [...allowed].sort() };
    }
    return undefined;
  }

  /**
   * Objects in a query or a header, which OpenAPI leaves undefined inside a form-style array (AWS's
   * tag lists: `Tags` is an array of `{ Key, Value }`), arrive as JSON text, as the samples and the
   * try-out write them: such items are parsed when the schema wants an object or an array there.
   * Anything else is left as it came, for the validator to judge.
   */
  private jsonItems(schema: JsonSchema | undefined, value: unknown): unknown {
    const resolved = (s: unknown) => followRefs(this.doc, s, 8);
    const structured = (s: unknown) => {
      const r = resolved(s);
      return r !== undefined && (r.type === 'object' || r.type === 'array' || isObject(r.properties));
    };
    const parsed = (v: unknown) => {
      if (typeof v !== 'string' || !/^\s*[{[]/.test(v)) return v;
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return v;
      }
    };
    const top = resolved(schema);
    if (top?.type === 'array' && structured(top.items))
      return (Array.isArray(value) ? value : [value]).map(parsed);
    return top !== undefined && top.type !== 'array' && structured(top) ? parsed(value) : value;
  }

  /**
   * A schema Ajv cannot compile (a JavaScript-incompatible pattern, a dangling $ref) is not held
   * against the caller: that value goes unvalidated, and the document's fault is logged once.
   */
  private compile(ajv: Ajv2020, schema: object, what: string): ValidateFunction | null {
    try {
      return ajv.compile(schema);
    } catch (err) {
      this.onSchemaError?.(what, err);
      return null;
    }
  }

  private paramValidator(
    compiled: CompiledOperation,
    param: Parameter,
    schema: JsonSchema,
  ): ValidateFunction | null {
    compiled.params ??= new Map();
    let validate = compiled.params.get(param);
    if (validate === undefined) {
      validate = this.adopted.params.get(param);
      if (validate === undefined) {
        this.paramsAjv ??= newAjv(this.doc, true);
        // Wrapped in an object so that Ajv's coercion can replace the value in place.
        validate = this.compile(
          this.paramsAjv,
          parameterSchema(schema),
          `${param.in} parameter '${param.name}'`,
        );
      }
      compiled.params.set(param, validate);
    }
    return validate;
  }

  private bodyValidator(
    compiled: CompiledOperation,
    type: string,
    schema: JsonSchema,
  ): ValidateFunction | null {
    compiled.body ??= new Map();
    let validate = compiled.body.get(type);
    if (validate === undefined) {
      validate = typeof schema === 'object' ? this.adopted.schemas.get(schema) : undefined;
      if (validate === undefined) {
        this.bodyAjv ??= newAjv(this.doc, false);
        validate = this.compile(this.bodyAjv, anchorRefs(schema) as object, `request body (${type})`);
      }
      compiled.body.set(type, validate);
    }
    return validate;
  }

  /** Checks parameters and body against the operation; undefined when the request is valid. */
  validate(match: MatchedOperation, req: IncomingRequest): ValidationFailure | undefined {
    // Percent-decoded where the value is well-formed, else kept as it came (never a failure).
    let cookies: Record<string, string | undefined> | undefined;
    for (const param of match.parameters) {
      // OpenAPI ignores these header parameters: the protocol defines them.
      if (param.in === 'header' && IGNORED_HEADERS.has(param.name.toLowerCase())) continue;
      let raw: unknown;
      switch (param.in) {
        case 'path':
          raw = match.pathParams[param.name];
          break;
        case 'query': {
          const all = req.query.getAll(param.name);
          raw = all.length > 1 ? all : all[0];
          break;
        }
        case 'header': {
          const h = req.headers[param.name.toLowerCase()];
          raw = Array.isArray(h) ? h.join(', ') : h;
          break;
        }
        case 'cookie':
          cookies ??= parseCookie((req.headers.cookie as string | undefined) ?? '');
          raw = cookies[param.name];
          break;
        default:
          continue;
      }
      const where = `${param.in} parameter '${param.name}'`;
      if (raw === undefined || (raw === '' && param.in === 'path')) {
        if (param.required || param.in === 'path') {
          return { status: 400, description: `${where} is required`, parameter: param.name };
        }
        continue;
      }
      let schema: JsonSchema | undefined = param.schema;
      let value: unknown = raw;
      const jsonContent = param.content
        ? Object.entries(param.content).find(([t]) => isJsonMedia(t))?.[1]
        : undefined;
      if (jsonContent) {
        schema = jsonContent.schema;
        try {
          value = JSON.parse(String(raw));
        } catch {
          return { status: 400, description: `${where} must be valid JSON`, parameter: param.name };
        }
      } else if (
        typeof raw === 'string' &&
        isObject(schema) &&
        (schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'))) &&
        (param.explode === false || param.in !== 'query')
      ) {
        // Form style without explode, and simple style: comma-separated values.
        value = raw === '' ? [] : raw.split(',');
      }
      if (!jsonContent) value = this.jsonItems(schema, value);
      if (schema === undefined) continue;
      const validate = this.paramValidator(match.compiled, param, schema);
      const holder = { value };
      if (validate && !validate(holder)) {
        const error = validate.errors?.[0];
        const at = error?.instancePath.replace(/^\/value/, '') ?? '';
        return {
          status: 400,
          description: `${where}${at ? ` item ${at.slice(1)}` : ''} ${error ? describeError(error) : 'is invalid'}`,
          parameter: param.name,
        };
      }
    }

    const requestBody = match.operation.requestBody;
    if (!requestBody || !isObject(requestBody.content)) return undefined;
    const hasBody = req.body !== undefined && req.body.length > 0;
    if (!hasBody) {
      return requestBody.required
        ? { status: 400, description: 'request body is required', parameter: 'body' }
        : undefined;
    }
    const actual = mediaBase(req.contentType ?? 'application/octet-stream');
    const documented = Object.keys(requestBody.content);
    const type = documented.find((d) => mediaMatches(d, actual));
    if (type === undefined) {
      return {
        status: 415,
        description: `content type '${actual}' is not supported; use ${documented.join(' or ')}`,
        parameter: 'body',
      };
    }
    const schema = requestBody.content[type]?.schema;
    if (!isJsonMedia(actual) || schema === undefined) return undefined;
    let body: unknown;
    try {
      body = JSON.parse(req.body!.toString('utf8'));
    } catch {
      return { status: 400, description: 'request body is not valid JSON', parameter: 'body' };
    }
    const validate = this.bodyValidator(match.compiled, type, schema);
    if (validate && !validate(body)) {
      const error = validate.errors?.[0];
      const missing = (error?.params as { missingProperty?: string } | undefined)?.missingProperty;
      const pointer = (error?.instancePath ?? '') + (missing ? `/${missing}` : '');
      const at = error?.instancePath ? ` property '${error.instancePath.slice(1)}'` : '';
      return {
        status: 400,
        description: `request body${at} ${error ? describeError(error) : 'is invalid'}`,
        parameter: 'body',
        pointer: pointer || '/',
      };
    }
    return undefined;
  }

  /** The security schemes a requirement names, with their scopes, for scope checks. */
  scheme(name: string) {
    return this.doc.components?.securitySchemes?.[name];
  }
}
