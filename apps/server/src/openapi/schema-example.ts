import RandExpModule from 'randexp';
import { runToEnd } from '../lib/turns.ts';
import { isObject, resolvePointer, type JsonSchema } from './document.ts';

/**
 * How deep generated examples go in full: past this depth an object gets its required properties
 * only and a list its required items only, so that circular schemas end while deep ones that are
 * not circular still make valid values (HubSpot's automation, Amazon EMR on EKS: a required
 * property ten levels down, an allOf and a description at each).
 */
const MAX_DEPTH = 8;
/** Past this depth nothing is made at all: a chain of required circular properties ends here. */
const REQUIRED_DEPTH = 48;
/** From this depth on, optional circular properties are left out (two levels of nesting shown). */
const CIRCULAR_DEPTH = 5;

const FORMAT_EXAMPLES: Record<string, unknown> = {
  'date-time': '2026-01-15T09:30:00Z',
  date: '2026-01-15',
  time: '09:30:00Z',
  email: 'customer@example.com',
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  uri: 'https://example.com/resource',
  url: 'https://example.com/resource',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  byte: 'U2FuZGJveA==',
  iban: 'DE89370400440532013000',
};

/**
 * Tells whether a value is valid for a schema of the document (Ajv, see CompiledApi); generation
 * uses it to skip a document's own examples that break its schema and to pick a `oneOf` option
 * that matches exactly one.
 */
export type SchemaCheck = (schema: JsonSchema, value: unknown) => boolean;

/** Keywords that say what a value must be (or give it); a schema with none only annotates. */
const CONSTRAINING = [
  'type',
  'properties',
  'items',
  'prefixItems',
  'additionalProperties',
  'required',
  'allOf',
  'oneOf',
  'anyOf',
  'not',
  '$ref',
  'enum',
  'const',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'example',
  'examples',
  'default',
];

function constrains(part: unknown): boolean {
  return !isObject(part) || CONSTRAINING.some((key) => key in part);
}

/**
 * An object merged from an allOf, less the properties from its parts that the schema's own
 * `additionalProperties` refuses: it applies to every property its own `properties` do not name,
 * even those the parts define (Azure's Data Factory: `additionalProperties: { type: object }`
 * beside an allOf of a resource whose `eTag` is a string). Optional ones go; a required one stays.
 */
function withoutForbiddenExtras(
  schema: Record<string, unknown>,
  value: unknown,
  check: SchemaCheck | undefined,
): unknown {
  const extra = schema.additionalProperties;
  if (!isObject(value) || extra === undefined || extra === true) return value;
  const named = isObject(schema.properties) ? schema.properties : {};
  const patterns = isObject(schema.patternProperties) ? Object.keys(schema.patternProperties) : [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const additional = !(key in named) && !patterns.some((p) => documentPattern(p)?.test(key) === true);
    const refused =
      additional &&
      (extra === false ||
        (isObject(extra) &&
          (!typeAllows(extra, v) || (check !== undefined && !check(extra as JsonSchema, v)))));
    if (!refused || required.has(key)) out[key] = v;
  }
  const stand = placeholders.get(value);
  if (stand) placeholders.set(out, stand);
  return out;
}

/**
 * The properties of a generated object that stand in for required ones its schema does not
 * describe: another part of an allOf that describes them gives the value (mergeParts).
 */
const placeholders = new WeakMap<object, Set<string>>();

/** The values of an allOf's parts in one object: a described value wins over a placeholder. */
function mergeParts(parts: Record<string, unknown>[]): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  const standing = new Set<string>();
  for (const part of parts) {
    const stand = placeholders.get(part);
    for (const [key, value] of Object.entries(part)) {
      if (stand?.has(key)) {
        if (key in merged) continue;
        standing.add(key);
      } else standing.delete(key);
      merged[key] = value;
    }
  }
  if (standing.size) placeholders.set(merged, standing);
  return merged;
}

/**
 * A document's pattern as JavaScript reads it: with the 'u' flag as JSON Schema says, else without
 * it for patterns written for other engines ('\-' outside a class, as AWS writes them); undefined
 * when JavaScript cannot read it at all.
 */
function documentPattern(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    try {
      return new RegExp(pattern);
    } catch {
      return undefined;
    }
  }
}

/** The JSON type of a value, as a schema's `type` names it. */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * Whether a value has a type the schema allows: without a full check (request samples), a
 * document's own example of another type (a phone number written as a number for a string,
 * Mastercard's MDES) is not taken.
 */
function typeAllows(schema: Record<string, unknown>, value: unknown): boolean {
  const types = Array.isArray(schema.type)
    ? schema.type
    : typeof schema.type === 'string'
      ? [schema.type]
      : [];
  if (types.length === 0) return true;
  const type = jsonType(value);
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

/** The schema's own example, examples, const, default or enum values that pass the check. */
function firstExample(
  schema: Record<string, unknown>,
  check?: SchemaCheck,
): { found: boolean; value?: unknown } {
  const candidates: unknown[] = [];
  if ('const' in schema) candidates.push(schema.const);
  if ('example' in schema) candidates.push(schema.example);
  if (Array.isArray(schema.examples)) candidates.push(...schema.examples.slice(0, 3));
  if ('default' in schema) candidates.push(schema.default);
  if (Array.isArray(schema.enum)) candidates.push(...schema.enum.slice(0, 10));
  for (const value of candidates) {
    if (typeAllows(schema, value) && (!check || check(schema, value))) return { found: true, value };
  }
  return { found: false };
}

// randexp is CommonJS with a default export that Node's ESM interop wraps once more.
const RandExp = ((RandExpModule as unknown as { default?: typeof RandExpModule }).default ??
  RandExpModule) as unknown as typeof RandExpModule.default;

/** A small deterministic generator (mulberry32), so that a pattern always gives the same answer. */
function seeded(text: string): () => number {
  let seed = 0;
  for (let i = 0; i < text.length; i++) seed = (Math.imul(seed, 31) + text.charCodeAt(i)) | 0;
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A string matching a pattern (randexp) within the lengths, the same every time; undefined for
 * patterns JS cannot read or when a few tries find none ('[a-z]*' with minLength 1 may give '').
 */
function fromPattern(pattern: string, maxLength: number | undefined, minLength = 0): string | undefined {
  const regex = documentPattern(pattern);
  if (!regex) return undefined;
  try {
    const generator = new RandExp(regex);
    const random = seeded(pattern);
    generator.randInt = (a: number, b: number) => a + Math.floor(random() * (b - a + 1));
    // Printable ASCII for negated classes and '.'.
    generator.defaultRange.subtract(0, 31).subtract(127, 0x10ffff);
    for (let attempt = 0; attempt < 8; attempt++) {
      generator.max = Math.max(4, minLength) + attempt; // repetitions of * and +
      const value = generator.gen();
      // randexp makes nothing of lookaheads ('(?!^-)…', QLDB's names): the match is checked.
      if (
        value.length >= minLength &&
        (maxLength === undefined || value.length <= maxLength) &&
        regex.test(value)
      )
        return value;
    }
    return undefined;
  } catch {
    return undefined;
  }
}

function typeOf(schema: Record<string, unknown>): string | undefined {
  const t = schema.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return (t.find((x) => x !== 'null') as string | undefined) ?? 'null';
  if (isObject(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

/**
 * A plausible value for a JSON schema: its own example, default, const or first enum value, else
 * one built from its type, properties and items. `$ref`s (the circular schemas the catalog keeps)
 * are followed in `doc`; past MAX_DEPTH only what is required is made, past REQUIRED_DEPTH nothing.
 */
export function exampleFromSchema(
  schema: JsonSchema | undefined,
  doc: unknown,
  depth = 0,
  check?: SchemaCheck,
  skipOwnExamples = false,
): unknown {
  return runToEnd(generating(schema, doc, depth, check, skipOwnExamples));
}

/**
 * exampleFromSchema as work that pauses (yields) before each property, option and part: a schema
 * of a few hundred properties, each value made and checked (randexp, validators compiled by V8 on
 * their first call), took 20-50 ms of one turn of the event loop (gateway/mock.ts
 * mockResponseInTurns).
 */
export function* generating(
  schema: JsonSchema | undefined,
  doc: unknown,
  depth: number,
  check: SchemaCheck | undefined,
  skipOwnExamples = false,
): Generator<void, unknown> {
  if (schema === undefined || typeof schema === 'boolean') return null;
  if (typeof schema.$ref === 'string') {
    // Only circular schemas keep their $refs: a chain of required ones has no end.
    if (depth >= REQUIRED_DEPTH) return undefined;
    const target = resolvePointer(doc, schema.$ref);
    return isObject(target) ? yield* generating(target, doc, depth + 1, check) : null;
  }
  if (!skipOwnExamples) {
    const own = firstExample(schema, check);
    if (own.found) return own.value;
  }
  const generate = (s: unknown, skipOwn = false) =>
    generating(s as JsonSchema, doc, depth + 1, check, skipOwn);
  if (Array.isArray(schema.allOf)) {
    const merge = (parts: unknown[]) => {
      if (parts.length === 0) return undefined;
      if (parts.every((p) => isObject(p))) return mergeParts(parts as Record<string, unknown>[]);
      return parts.find((p) => p !== undefined);
    };
    // The schema's own properties beside its allOf are a part too (Azure's resources: an allOf of
    // the base resource, and properties of their own).
    const { allOf: _parts, ...own } = schema;
    const ownPart = isObject(own.properties) ? [own] : [];
    const parts = function* (skipOwn: boolean) {
      const values: unknown[] = [];
      for (const part of [...(schema.allOf as unknown[]), ...ownPart]) {
        // A part that only annotates (`{ description }` beside a `$ref`, as AWS documents write
        // every property) says nothing of the value: it would make an object of any value.
        if (!constrains(part)) continue;
        yield;
        values.push(yield* generate(part, skipOwn));
      }
      return values;
    };
    let merged = withoutForbiddenExtras(schema, merge(yield* parts(false)), check);
    // A part's own example may contradict another part: build the parts from their schemas then.
    if (check && merged !== undefined && !check(schema, merged))
      merged = withoutForbiddenExtras(schema, merge(yield* parts(true)), check);
    if (merged !== undefined) return merged;
    // No part could make a value (too deep, say): none rather than an object of another type.
    if (schema.type === undefined && !isObject(schema.properties)) return undefined;
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length) {
      const ordered = [
        ...options.filter((o) => !(isObject(o) && o.type === 'null')),
        ...options.filter((o) => isObject(o) && o.type === 'null'),
      ];
      // The schema's own properties (a shared `type`, a discriminator's) apply to every option.
      const { [key]: _options, ...shared } = schema;
      let fallback: unknown;
      for (const [i, option] of ordered.entries()) {
        yield;
        const value = yield* generate(isObject(option) ? { ...shared, ...option } : option);
        if (i === 0) fallback = value;
        if (!check || check(schema, value)) return value;
      }
      return fallback;
    }
  }
  switch (typeOf(schema)) {
    case 'object': {
      const requiredOnly = depth >= MAX_DEPTH;
      const out: Record<string, unknown> = {};
      const props = isObject(schema.properties) ? schema.properties : {};
      const required = new Set(Array.isArray(schema.required) ? schema.required : []);
      for (const [name, sub] of Object.entries(props)) {
        // The catalog keeps $ref only for circular schemas: optional ones (or lists of them) stop
        // after two levels.
        const circular =
          isObject(sub) &&
          (typeof sub.$ref === 'string' || (isObject(sub.items) && typeof sub.items.$ref === 'string'));
        if (!required.has(name) && (requiredOnly || (circular && depth >= CIRCULAR_DEPTH))) continue;
        // An optional property that only annotates (an allOf part re-describing the `text` another
        // part makes a string, Vonage's messages) would override that part's value with {}.
        if (!required.has(name) && !constrains(sub)) continue;
        yield;
        const value = yield* generate(sub);
        // An optional property no value can satisfy (a oneOf of equal options) is left out.
        if (value === undefined || (check && !required.has(name) && !check(sub as JsonSchema, value)))
          continue;
        out[name] = value;
      }
      // A required property the schema does not describe (Vonage's messages require `message`
      // and list only `client_ref`): a value its patternProperties or additionalProperties
      // allow, a text by default.
      const patterns = isObject(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
      const extra = schema.additionalProperties;
      const standing = new Set<string>();
      for (const name of required) {
        if (typeof name !== 'string' || name in props) continue;
        const matching = patterns.find(([pattern]) => documentPattern(pattern)?.test(name) === true)?.[1];
        if (matching === undefined && extra === false) continue;
        yield;
        const describedBy = matching ?? extra;
        const value = isObject(describedBy) ? yield* generate(describedBy) : 'string';
        if (value === undefined) continue;
        out[name] = value;
        standing.add(name);
      }
      if (standing.size) placeholders.set(out, standing);
      return out;
    }
    case 'array': {
      // No items where the schema wants some: nothing (an optional property is then left out,
      // AWS Marketplace Metering's tags five levels down) rather than an empty list it refuses.
      const atLeastOne = typeof schema.minItems === 'number' && schema.minItems > 0;
      if (depth >= MAX_DEPTH && !atLeastOne) return [];
      const item = yield* generate(schema.items ?? {});
      const count =
        typeof schema.minItems === 'number' && schema.minItems > 1 ? Math.min(schema.minItems, 3) : 1;
      if (item === undefined) return atLeastOne ? undefined : [];
      return Array.from({ length: count }, () => item);
    }
    default:
      return scalarExample(schema);
  }
}

/** The value of a schema that is not an object, an array or a combination. */
function scalarExample(schema: Record<string, unknown>): unknown {
  switch (typeOf(schema)) {
    case 'string': {
      const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
      if (typeof schema.pattern === 'string') {
        const matching = fromPattern(
          schema.pattern,
          max,
          typeof schema.minLength === 'number' ? schema.minLength : 0,
        );
        if (matching !== undefined) return matching;
      }
      const format = typeof schema.format === 'string' ? FORMAT_EXAMPLES[schema.format] : undefined;
      if (format !== undefined) return format;
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      const text = min > 6 ? 'x'.repeat(min) : 'string';
      return max !== undefined ? text.slice(0, max) : text;
    }
    case 'integer':
    case 'number': {
      let value = 0;
      if (typeof schema.minimum === 'number') value = schema.minimum;
      else if (typeof schema.exclusiveMinimum === 'number') value = schema.exclusiveMinimum + 1;
      else if (typeof schema.maximum === 'number' && schema.maximum < 0) value = schema.maximum;
      else if (typeof schema.exclusiveMaximum === 'number' && schema.exclusiveMaximum <= 0)
        value = schema.exclusiveMaximum - 1;
      if (typeOf(schema) === 'integer') value = Math.ceil(value);
      const step = schema.multipleOf;
      if (typeof step === 'number' && step > 0) value = Math.ceil(value / step) * step;
      return value;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return {};
  }
}
