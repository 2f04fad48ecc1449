import type { JsonSchema } from '@portico/contracts/catalog';

/**
 * Reading JSON schemas (OpenAPI 3.1) for display: type labels, constraints, and `$ref`s that the
 * server left in place for circular schemas (their targets come in the operation's `refs`).
 */
export type SchemaObject = { [key: string]: unknown };

export function asObject(schema: JsonSchema | null | undefined): SchemaObject | null {
  return schema && typeof schema === 'object' ? schema : null;
}

/** 'Transaction' for '#/components/schemas/Transaction'. */
export function refName(ref: string): string {
  const last = ref.split('/').pop() ?? ref;
  return last.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function refOf(schema: SchemaObject | null): string | null {
  return schema && typeof schema.$ref === 'string' ? schema.$ref : null;
}

/** The type written for a schema: 'string (date)', 'array<Transaction>', 'string | null'. */
export function typeLabel(schema: JsonSchema | null | undefined): string {
  if (schema === true || schema === undefined || schema === null) return 'any';
  if (schema === false) return 'never';
  const ref = refOf(schema);
  if (ref) return refName(ref);
  const types = Array.isArray(schema.type)
    ? (schema.type as string[])
    : typeof schema.type === 'string'
      ? [schema.type]
      : schema.properties
        ? ['object']
        : schema.items
          ? ['array']
          : [];
  const label = types
    .map((t) => {
      if (t === 'array') {
        const items = schema.items as JsonSchema | undefined;
        return items === undefined ? 'array' : `array<${typeLabel(items)}>`;
      }
      return t;
    })
    .join(' | ');
  const format = typeof schema.format === 'string' ? ` (${schema.format})` : '';
  if (label) return `${label}${format}`;
  if (schema.oneOf) return 'one of';
  if (schema.anyOf) return 'any of';
  if (schema.allOf) return 'all of';
  if ('const' in schema) return 'const';
  if (schema.enum) return 'enum';
  return 'any';
}

const CONSTRAINTS: [string, string][] = [
  ['minLength', 'min length'],
  ['maxLength', 'max length'],
  ['minimum', '>='],
  ['exclusiveMinimum', '>'],
  ['maximum', '<='],
  ['exclusiveMaximum', '<'],
  ['multipleOf', 'multiple of'],
  ['pattern', 'pattern'],
  ['minItems', 'min items'],
  ['maxItems', 'max items'],
  ['uniqueItems', 'unique items'],
  ['minProperties', 'min properties'],
  ['maxProperties', 'max properties'],
];

/** Constraints worth showing, as short labels ('max length 35', 'pattern ^[A-Z]{3}$'). */
export function constraints(schema: SchemaObject): string[] {
  const out: string[] = [];
  for (const [key, label] of CONSTRAINTS) {
    const value = schema[key];
    if (value === undefined || value === false) continue;
    out.push(value === true ? label : `${label} ${String(value)}`);
  }
  return out;
}

/** Example values of a schema (3.1 `examples` array, or the older `example`). */
export function schemaExamples(schema: SchemaObject): unknown[] {
  if (Array.isArray(schema.examples)) return schema.examples as unknown[];
  if ('example' in schema) return [schema.example];
  return [];
}

/** A value as shown in a cell: strings as is, anything else as JSON. */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** A value as shown in a code block. */
export function prettyJson(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}
