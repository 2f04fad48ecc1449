import { exampleAllowed, type ParameterDetail } from '@portico/contracts/catalog';
import { exampleFromSchema } from './schema-example.ts';
import { followRefs, type JsonSchema } from './document.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Values for string formats: what a client would really send. */
const FORMAT_VALUES: Record<string, string> = {
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  date: '2026-01-15',
  'date-time': '2026-01-15T09:30:00Z',
  time: '09:30:00Z',
  duration: 'P1D',
  email: 'customer@example.com',
  'idn-email': 'customer@example.com',
  uri: 'https://example.com/resource',
  url: 'https://example.com/resource',
  'uri-reference': '/resource',
  iri: 'https://example.com/resource',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  byte: 'U2FuZGJveA==',
  iban: 'DE89370400440532013000',
  bic: 'DEUTDEFF',
  password: 'S3cret!pass',
  int32: '1',
  int64: '1',
};

/** Values suggested by a parameter's name when its schema says nothing more than 'string'. */
const NAME_HINTS: [RegExp, string][] = [
  [/iban/i, 'DE89370400440532013000'],
  [/(^|_|-)bic$|swift/i, 'DEUTDEFF'],
  [/currency/i, 'EUR'],
  [/country/i, 'DE'],
  [/(^|_|-)(lang|language|locale)$/i, 'en'],
  [/e-?mail/i, 'customer@example.com'],
  [/(date|day)$/i, '2026-01-15'],
  [/(time|timestamp|since|until)$/i, '2026-01-15T09:30:00Z'],
  [/(url|uri|link|href)$/i, 'https://example.com/resource'],
  [/(^|_|-)(q|query|search|term|filter)$/i, 'coffee'],
  [/(sort|order)(_?by)?$/i, 'created'],
  [/(cursor|token|after|before)$/i, 'eyJvZmZzZXQiOjIwfQ'],
  [/(^|_|-)name$|Name$/, 'Jane Doe'],
  [/(id|Id|ID|key|Key|code|Code|number|Number|ref|Ref)$/, '12345'],
];

const MAX_DEPTH = 6;

function resolve(schema: unknown, doc: unknown): Obj | null {
  return followRefs(doc, schema, MAX_DEPTH) ?? null;
}

/** The schema's own values: example, examples, default, const, then its first (non-null) enum value. */
function ownValue(schema: Obj): { found: boolean; value?: unknown } {
  if ('example' in schema && schema.example !== undefined && exampleAllowed(schema, schema.example))
    return { found: true, value: schema.example };
  if (Array.isArray(schema.examples) && schema.examples.length && exampleAllowed(schema, schema.examples[0]))
    return { found: true, value: schema.examples[0] };
  if ('default' in schema && schema.default !== undefined && exampleAllowed(schema, schema.default))
    return { found: true, value: schema.default };
  if ('const' in schema) return { found: true, value: schema.const };
  if (Array.isArray(schema.enum) && schema.enum.length) {
    const first = schema.enum.find((v) => v !== null) ?? schema.enum[0];
    return { found: true, value: first };
  }
  return { found: false };
}

function typeOf(schema: Obj): string | undefined {
  const t = schema.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return (t.find((x) => x !== 'null') as string | undefined) ?? 'null';
  if (isObj(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  if (typeof schema.pattern === 'string' || typeof schema.format === 'string') return 'string';
  if (typeof schema.minimum === 'number' || typeof schema.maximum === 'number') return 'number';
  return undefined;
}

/** A number within the schema's range: its minimum (exclusive ones stepped over), else 1. */
function numberValue(schema: Obj, integer: boolean): number {
  const step =
    typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : integer ? 1 : 0;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  // OpenAPI 3.0's boolean exclusiveMinimum/Maximum (not converted everywhere) with minimum/maximum.
  const exMin =
    num(schema.exclusiveMinimum) ?? (schema.exclusiveMinimum === true ? num(schema.minimum) : undefined);
  const exMax =
    num(schema.exclusiveMaximum) ?? (schema.exclusiveMaximum === true ? num(schema.maximum) : undefined);
  const min = exMin === undefined ? num(schema.minimum) : undefined;
  const max = exMax === undefined ? num(schema.maximum) : undefined;
  let value: number;
  if (min !== undefined) value = min;
  else if (exMin !== undefined) value = exMin + (step || 1);
  else value = 1;
  if (max !== undefined && value > max) value = max;
  if (exMax !== undefined && value >= exMax) value = exMax - (step || 1);
  if (integer) value = Math.ceil(value);
  if (step) value = Math.ceil(value / step) * step;
  return value;
}

function stringValue(schema: Obj, name: string, doc: unknown): string {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  const fits = (v: string) => v.length >= min && (max === undefined || v.length <= max);
  if (typeof schema.pattern === 'string') {
    // The gateway's generator makes a string matching the pattern (randexp, deterministic).
    const matching = exampleFromSchema(
      {
        type: 'string',
        pattern: schema.pattern,
        // Both limits: a match too short for minLength fell back to a name hint, which the pattern
        // then refused (AWS FinSpace's database name, 3 characters at least).
        ...(min > 0 ? { minLength: min } : {}),
        ...(max !== undefined ? { maxLength: max } : {}),
      },
      doc,
    );
    if (typeof matching === 'string' && matching !== 'string' && fits(matching)) return matching;
  }
  const format = typeof schema.format === 'string' ? FORMAT_VALUES[schema.format] : undefined;
  if (format !== undefined && fits(format)) return format;
  let text = NAME_HINTS.find(([re]) => re.test(name))?.[1] ?? 'example';
  if (text.length < min) text = text + 'x'.repeat(min - text.length);
  return max !== undefined ? text.slice(0, Math.max(max, 1)) : text;
}

/** A value for a schema, generated where it has none of its own (see sampleValue). */
export function valueFromSchema(schema: unknown, name: string, doc: unknown, depth = 0): unknown {
  const s = resolve(schema, doc);
  if (!s || depth > MAX_DEPTH) return name || 'example';
  const own = ownValue(s);
  if (own.found) return own.value;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = Array.isArray(s[key]) ? (s[key] as unknown[]) : [];
    const option = options.find((o) => !(isObj(o) && o.type === 'null')) ?? options[0];
    if (option !== undefined) {
      const { [key]: _omit, ...shared } = s;
      const resolved = resolve(option, doc);
      return valueFromSchema(resolved ? { ...shared, ...resolved } : option, name, doc, depth + 1);
    }
  }
  if (Array.isArray(s.allOf) && s.allOf.length) {
    const merged = Object.assign({}, ...s.allOf.map((p) => resolve(p, doc) ?? {})) as Obj;
    const { allOf: _omit, ...rest } = s;
    return valueFromSchema({ ...merged, ...rest }, name, doc, depth + 1);
  }
  switch (typeOf(s)) {
    case 'integer':
      return numberValue(s, true);
    case 'number':
      return numberValue(s, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const item = valueFromSchema(s.items ?? {}, name.replace(/s$/, ''), doc, depth + 1);
      const count = typeof s.minItems === 'number' && s.minItems > 1 ? Math.min(s.minItems, 3) : 1;
      return Array.from({ length: count }, () => item);
    }
    case 'object':
      return exampleFromSchema(s as JsonSchema, doc);
    default:
      return stringValue(s, name, doc);
  }
}

/**
 * The value a request sample puts for a parameter, never a type name: the parameter's example,
 * then its first `examples` value (each only if its schema's enum allows it), then its schema's
 * example, examples, default, const or first enum value, else one generated from the schema:
 * format-aware (uuid, date, date-time, email...), matching its pattern, within its integer range
 * and lengths, or suggested by the parameter's name.
 */
export function sampleValue(
  p: Pick<ParameterDetail, 'name' | 'schema' | 'example' | 'examples'>,
  doc: unknown,
): unknown {
  // An example its schema's enum refuses is not sent (exampleAllowed); the schema's own value is.
  const schema = resolve(p.schema, doc);
  if (p.example !== undefined && exampleAllowed(schema, p.example)) return p.example;
  const first = p.examples ? Object.values(p.examples)[0] : undefined;
  // ParameterDetail.examples holds the Example Objects' values already (details.ts).
  if (first !== undefined && exampleAllowed(schema, first)) return first;
  return valueFromSchema(p.schema ?? {}, p.name, doc);
}
