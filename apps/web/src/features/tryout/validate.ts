import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { JsonSchema } from '@portico/contracts/catalog';

/**
 * JSON Schema 2020-12 validation of try-out bodies and responses (OpenAPI 3.1 schemas). The
 * operation's `refs` (targets of the `$ref`s left in circular schemas, by pointer) are placed at
 * their pointers inside a root document, so `#/components/schemas/X` resolves as in the original.
 */
let ajv: Ajv2020 | undefined;
function instance(): Ajv2020 {
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(ajv);
  }
  return ajv;
}

const cache = new WeakMap<object, ReturnType<Ajv2020['compile']>>();

function rootOf(schema: JsonSchema, refs: Record<string, JsonSchema>): JsonSchema {
  if (typeof schema === 'boolean' || Object.keys(refs).length === 0) return schema;
  const root: Record<string, unknown> = { ...schema };
  for (const [pointer, target] of Object.entries(refs)) {
    const parts = pointer
      .replace(/^#\//, '')
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    let node = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = target;
      else {
        const next = node[part];
        node[part] = next && typeof next === 'object' ? { ...(next as Record<string, unknown>) } : {};
        node = node[part] as Record<string, unknown>;
      }
    });
  }
  return root;
}

/** The problems of `value` against `schema`, as 'pointer: message' lines; empty when it passes. */
export function validateAgainst(
  value: unknown,
  schema: JsonSchema,
  refs: Record<string, JsonSchema> = {},
): string[] {
  try {
    const key = typeof schema === 'object' ? schema : null;
    let validate = key ? cache.get(key) : undefined;
    if (!validate) {
      validate = instance().compile(rootOf(schema, refs) as object);
      if (key) cache.set(key, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).slice(0, 20).map(describe);
  } catch (err) {
    // A schema Ajv cannot compile is not the caller's fault: nothing is reported.
    console.warn('try-out: schema not checked', err);
    return [];
  }
}

function describe(e: ErrorObject): string {
  const where = e.instancePath || '/';
  const extra =
    e.keyword === 'additionalProperties'
      ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})`
      : e.keyword === 'enum'
        ? ` (${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).map(String).join(', ')})`
        : '';
  return `${where}: ${e.message ?? e.keyword}${extra}`;
}
