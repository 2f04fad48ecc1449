/**
 * OpenAPI 3.0 → 3.1, in place. 3.1 schemas are JSON Schema 2020-12, so the 3.0 schema dialect is
 * rewritten: `nullable`, boolean `exclusiveMinimum`/`exclusiveMaximum`, schema `example`, and file
 * formats. Everything else in 3.0 is valid 3.1.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_SINGLE = [
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
];

function upgradeSchema(schema: unknown, seen: Set<object>): void {
  if (!isObj(schema) || seen.has(schema)) return;
  seen.add(schema);
  // In 3.0 the siblings of a $ref are ignored; they stay ignored-equivalent here.
  if (typeof schema.$ref === 'string') {
    delete schema.nullable;
    return;
  }

  if ('nullable' in schema) {
    const nullable = schema.nullable === true;
    delete schema.nullable;
    if (nullable) makeNullable(schema);
  }
  for (const [bound, limit] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof schema[bound] === 'boolean') {
      if (schema[bound] === true && typeof schema[limit] === 'number') {
        schema[bound] = schema[limit];
        delete schema[limit];
      } else {
        delete schema[bound];
      }
    }
  }
  // `example` stays too (deprecated but valid in 3.1): references may point into it.
  if ('example' in schema && !Array.isArray(schema.examples)) schema.examples = [schema.example];
  // File contents are described by media type and encoding, not by format, in 3.1.
  if (schema.type === 'string' && schema.format === 'binary') {
    schema.contentMediaType = 'application/octet-stream';
    delete schema.format;
  } else if (schema.type === 'string' && schema.format === 'base64') {
    schema.contentEncoding = 'base64';
    delete schema.format;
  }

  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (isObj(map)) for (const sub of Object.values(map)) upgradeSchema(sub, seen);
  }
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) for (const sub of list) upgradeSchema(sub, seen);
  }
  for (const key of SCHEMA_SINGLE) {
    const sub = schema[key];
    if (Array.isArray(sub)) for (const s of sub) upgradeSchema(s, seen);
    else upgradeSchema(sub, seen);
  }
}

function makeNullable(schema: Obj): void {
  if (typeof schema.type === 'string') {
    schema.type = [schema.type, 'null'];
  } else if (Array.isArray(schema.type)) {
    if (!schema.type.includes('null')) schema.type = [...(schema.type as unknown[]), 'null'];
  } else if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) {
    const key = Array.isArray(schema.oneOf) ? 'oneOf' : 'anyOf';
    (schema[key] as unknown[]).push({ type: 'null' });
    return;
  } else if (Array.isArray(schema.allOf)) {
    // allOf cannot be widened in place: the whole schema becomes "this, or null".
    const copy: Obj = { ...schema };
    for (const k of Object.keys(schema)) delete schema[k];
    schema.anyOf = [copy, { type: 'null' }];
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
}

/** Visits every place of the document that holds a schema (not the examples, not extensions). */
function walkDocument(node: unknown, seen: Set<object>, schemas: Set<object>, inComponents = false): void {
  if (Array.isArray(node)) {
    for (const item of node) walkDocument(item, seen, schemas);
    return;
  }
  if (!isObj(node) || seen.has(node)) return;
  seen.add(node);
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('x-') || key === 'example' || key === 'examples') continue;
    if (key === 'schema') upgradeSchema(value, schemas);
    else if (inComponents && key === 'schemas' && isObj(value)) {
      for (const sub of Object.values(value)) upgradeSchema(sub, schemas);
    } else walkDocument(value, seen, schemas, key === 'components');
  }
}

export function upgrade30To31(doc: Obj): Obj {
  walkDocument(doc, new Set(), new Set());
  doc.openapi = '3.1.0';
  return doc;
}
