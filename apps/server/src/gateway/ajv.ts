import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { isObject, type OpenApiDocument } from '../openapi/document.ts';

/**
 * Ajv as the sandbox sets it up, the same on the main thread (CompiledApi) and in the worker that
 * generates standalone validation code (validator-code.ts): JSON Schema 2020-12, the dialect of
 * OpenAPI 3.1, with the whole document registered so that the `$ref`s the catalog leaves for
 * circular schemas resolve.
 */
// ajv-formats is CommonJS with a default export that Node's ESM interop wraps once more.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

const DOC_ID = 'urn:portico:sandbox-document';

/** Rewrites local `$ref`s of a schema copied out of the document to point into the registered document. */
export function anchorRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(anchorRefs);
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `${DOC_ID}${v}` : anchorRefs(v);
  }
  return out;
}

/** The schema a parameter's value is checked with: wrapped, so that coercion can replace the value. */
export const parameterSchema = (schema: unknown) => ({
  type: 'object',
  properties: { value: anchorRefs(schema) },
});

/**
 * An Ajv for one document: `coerce` for parameters (strings to numbers, booleans, arrays), not for
 * bodies. `source` keeps the generated code, for standalone modules.
 */
export function newAjv(doc: OpenApiDocument, coerce: boolean, source = false): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: false,
    validateSchema: false,
    logger: false,
    coerceTypes: coerce ? 'array' : false,
    addUsedSchema: false,
    ...(source ? { code: { source: true } } : {}),
  });
  // In standalone code the formats are `require("ajv-formats/dist/formats").fullFormats[name]`.
  addFormats(ajv);
  // OpenAPI's own formats: numeric widths are checked by the type, 'binary' and 'password' are
  // free-form; 'byte' is base64, which ajv-formats checks (a document's truncated base64 example is
  // then not answered as valid, Azure's recovery services).
  for (const format of ['int32', 'int64', 'float', 'double', 'binary', 'password']) {
    ajv.addFormat(format, true);
  }
  ajv.addSchema(doc as object, DOC_ID);
  return ajv;
}
