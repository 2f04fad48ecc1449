import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import type { SourceCode } from 'ajv/dist/types/index.js';
import { threadId } from 'node:worker_threads';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { anchorRefs, newAjv, parameterSchema } from './ajv.ts';
import { IGNORED_HEADERS, isJsonMedia, mergeParameters } from './compiled-api.ts';
import { mockResponse } from './mock.ts';
import {
  HTTP_METHODS,
  isObject,
  type JsonSchema,
  type OpenApiDocument,
  type Operation,
} from '../openapi/document.ts';

/**
 * Runs in the document worker threads (openapi/pool.ts, decision 032): every Ajv
 * validator one operation of the sandbox can need, generated as standalone code, so that the main
 * thread only evaluates it. Ajv's compilation (code generation and `new Function`) of a schema of
 * 150 properties takes over 100 ms; evaluating the generated module takes a few.
 *
 * The validators are those of CompiledApi: each parameter's (coerced from strings), each request
 * body's, and every schema the mock generator checks a value against (`api.check`), found by
 * generating every documented answer (each response, each content type) here with the same code.
 * Each is named by where its schema (or parameter) is in the operation's slice, which the main
 * thread holds as the same object graph (structured clone keeps shared objects shared); a schema
 * made up during generation (a `oneOf` option merged with its parent) by its JSON text.
 */

// ajv/dist/standalone is CommonJS with a default export that Node's ESM interop wraps once more.
const standaloneCode = ((standaloneCodeModule as unknown as { default?: unknown }).default ??
  standaloneCodeModule) as unknown as (ajv: Ajv2020, refs: Record<string, string>) => string;

/** Where a validator's schema is: a path of keys from the slice's root, or the schema's JSON text. */
export type SchemaPlace = { path: string[] } | { text: string };

export interface ValidatorEntry {
  /** 'param': the validator of the Parameter object at `at` (coerced); 'schema': of the schema at `at`. */
  kind: 'param' | 'schema';
  at: SchemaPlace;
  /** Its export in the module of its kind; none when Ajv cannot compile the schema. */
  exportName?: string;
  /** Why it cannot be compiled, for the log (parameters and bodies; checks fail silently). */
  problem?: { what: string; message: string };
}

export interface ValidatorCode {
  /**
   * CommonJS modules of Ajv standalone code: parameters (coercing), bodies and checks; the
   * validators of a kind exported from one or more modules (export names unique across them).
   */
  modules: { param: string[]; schema: string[] };
  entries: ValidatorEntry[];
}

/** Compiles schemas under ids of one Ajv, to export them from one module (shared `$ref`s once). */
function exporter(ajv: Ajv2020, prefix: string) {
  const refs: Record<string, string> = {};
  let n = 0;
  return {
    /** The compiled validator and its export name; throws what Ajv throws. */
    add(schema: unknown): { validate: ValidateFunction; exportName: string } {
      const exportName = `${prefix}${n++}`;
      const id = `urn:portico:validator:${exportName}`;
      try {
        ajv.addSchema(schema as object, id);
        const validate = ajv.getSchema(id) as ValidateFunction;
        refs[exportName] = id;
        return { validate, exportName };
      } catch (err) {
        ajv.removeSchema(id);
        throw err;
      }
    },
    /**
     * The modules of the validators compiled: exports in the order added, as many to a module as
     * fit in MODULE_CHARS (an export that is larger alone), so that the main thread evaluates them
     * a module per turn of the event loop.
     */
    code: (): string[] => {
      const seen = new Set<SourceCode>();
      for (const id of Object.values(refs)) dropUnusedSchemaValues(ajv.getSchema(id)?.source, seen);
      const modules: string[] = [];
      let group: Record<string, string> = {};
      let chars = 0;
      for (const [name, id] of Object.entries(refs)) {
        // Its size alone (with what it declares): an estimate of what it adds to a module.
        const size = standaloneCode(ajv, { [name]: id }).length;
        if (chars && chars + size > MODULE_CHARS) {
          modules.push(standaloneCode(ajv, group));
          group = {};
          chars = 0;
        }
        group[name] = id;
        chars += size;
      }
      if (chars) modules.push(standaloneCode(ajv, group));
      return modules;
    },
  };
}

/**
 * The size of the modules of generated code the main thread evaluates in one turn each: V8 parses
 * and compiles about 20-50 ms of code per megabyte here, so 128 K characters cost a few ms.
 */
const MODULE_CHARS = 128 * 1024;

/**
 * Ajv names every compiled schema as a scope value (its `topSchemaRef`, for keywords that read
 * the schema at run time, an `enum` of many values for one) and standalone code declares every
 * such value, used or not: `const schema10 = {…the whole schema as JSON…}`. For one of
 * Kubernetes' operations, 207 schemas with their descriptions made a module of 6 MB whose
 * evaluation held the main thread for 160 ms. A schema value the function's own code never names
 * is dropped; one it names (and so declares) stays. Then the functions it calls, likewise.
 */
function dropUnusedSchemaValues(source: SourceCode | undefined, seen: Set<SourceCode>): void {
  if (!source || seen.has(source)) return;
  seen.add(source);
  const values = source.scopeValues;
  for (const name of values.schema ?? []) {
    if (!new RegExp(`\\b${String(name)}\\b`).test(source.validateCode)) values.schema!.delete(name);
  }
  for (const prefix of ['validate', 'root', 'wrapper']) {
    for (const name of values[prefix] ?? []) {
      const ref: unknown = name.value?.ref;
      const called = typeof ref === 'function' ? ref : (ref as { validate?: unknown } | undefined)?.validate;
      dropUnusedSchemaValues((called as { source?: SourceCode } | undefined)?.source, seen);
    }
  }
}

/** The path of keys each object of the slice is first reached by (worked out when asked). */
function placesOf(root: object): (node: object) => string[] | undefined {
  const parents = new Map<object, { parent: object; key: string } | null>([[root, null]]);
  const stack: object[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    for (const [key, value] of Object.entries(node)) {
      if (typeof value !== 'object' || value === null || parents.has(value)) continue;
      parents.set(value, { parent: node, key });
      stack.push(value);
    }
  }
  const paths = new Map<object, string[]>();
  const pathOf = (node: object): string[] | undefined => {
    let path = paths.get(node);
    if (!path) {
      const up = parents.get(node);
      if (up === undefined) return undefined;
      path = up ? [...pathOf(up.parent)!, up.key] : [];
      paths.set(node, path);
    }
    return path;
  };
  return pathOf;
}

/** Every validator one operation's slice can need, as standalone code (see above). */
export function operationValidatorCode(slice: OpenApiDocument): ValidatorCode {
  const pathOf = placesOf(slice);
  const placeOf = (node: object): SchemaPlace => {
    const path = pathOf(node);
    return path ? { path } : { text: JSON.stringify(node) };
  };
  const params = exporter(newAjv(slice, true, true), 'p');
  const schemas = exporter(newAjv(slice, false, true), 's');
  const entries: ValidatorEntry[] = [];
  const bySchema = new Map<object, ValidateFunction | null>();
  const byText = new Map<string, ValidateFunction | null>();

  /** A schema's validator, compiled once (by object, and by text for made-up schemas). */
  function schemaValidator(schema: object, what?: string): ValidateFunction | null {
    let validate = bySchema.get(schema);
    if (validate !== undefined) return validate;
    const at = placeOf(schema);
    validate = 'text' in at ? byText.get(at.text) : undefined;
    if (validate === undefined) {
      try {
        const added = schemas.add(anchorRefs(schema));
        validate = added.validate;
        entries.push({ kind: 'schema', at, exportName: added.exportName });
      } catch (err) {
        validate = null;
        entries.push({
          kind: 'schema',
          at,
          ...(what ? { problem: { what, message: (err as Error).message } } : {}),
        });
      }
      if ('text' in at) byText.set(at.text, validate);
    }
    bySchema.set(schema, validate);
    return validate;
  }

  // As CompiledApi.check does it, recording what it compiles.
  const check = (schema: JsonSchema, value: unknown): boolean => {
    if (typeof schema === 'boolean') return schema;
    const validate = schemaValidator(schema);
    return validate ? validate(value) : true;
  };

  for (const item of Object.values(slice.paths ?? {})) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      if (!isObject(item[method])) continue;
      const operation = item[method] as Operation;
      // Parameters, as CompiledApi.validate reads their schemas.
      for (const param of mergeParameters(item, operation)) {
        if (param.in === 'header' && IGNORED_HEADERS.has(param.name.toLowerCase())) continue;
        const jsonContent = param.content
          ? Object.entries(param.content).find(([t]) => isJsonMedia(t))?.[1]
          : undefined;
        const schema = jsonContent ? jsonContent.schema : param.schema;
        if (schema === undefined) continue;
        const at = placeOf(param);
        try {
          entries.push({ kind: 'param', at, exportName: params.add(parameterSchema(schema)).exportName });
        } catch (err) {
          const what = `${param.in} parameter '${param.name}'`;
          entries.push({ kind: 'param', at, problem: { what, message: (err as Error).message } });
        }
      }
      // Request bodies.
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
        if (isObject(media?.schema)) schemaValidator(media.schema, `request body (${type})`);
      }
      // Every documented answer, generated as the mock generates it: its checks are recorded.
      for (const [code, response] of Object.entries(operation.responses ?? {})) {
        const types = Object.keys(response?.content ?? {});
        for (const accept of types.length ? types : [undefined]) {
          mockResponse(operation, slice, { preferCode: code, accept, check });
        }
      }
    }
  }
  return { modules: { param: params.code(), schema: schemas.code() }, entries };
}

/**
 * A small operation with a parameter, a body and an answer: what a sandbox call's first use of an
 * operation runs through (Ajv, its standalone code generator, the mock generator).
 */
const WARM_UP_SLICE: OpenApiDocument = {
  openapi: '3.1.0',
  paths: {
    '/things/{id}': {
      put: {
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z]+$' } },
        ],
        requestBody: {
          content: {
            'application/json': { schema: { type: 'object', properties: { n: { type: 'integer' } } } },
          },
        },
        responses: {
          '200': {
            description: 'OK',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['id'],
                  properties: { id: { type: 'string', format: 'uuid' } },
                },
              },
            },
          },
        },
      },
    },
  },
};

/**
 * Loads and runs, in a worker thread, everything operationValidatorCode needs, so that the first
 * sandbox call of an operation does not wait for the thread to start and load it (decision 039).
 * Answers the thread's id.
 */
export function warmUp(): number {
  operationValidatorCode(WARM_UP_SLICE);
  return threadId;
}
