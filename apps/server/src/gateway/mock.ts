import {
  isObject,
  resolvePointer,
  type JsonSchema,
  type MediaType,
  type Operation,
  type Response,
} from './openapi.ts';

/** How deep generated examples go: circular schemas stop here instead of recursing forever. */
const MAX_DEPTH = 8;

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

function firstExample(schema: Record<string, unknown>): { found: boolean; value?: unknown } {
  if ('example' in schema) return { found: true, value: schema.example };
  if (Array.isArray(schema.examples) && schema.examples.length)
    return { found: true, value: schema.examples[0] };
  if ('const' in schema) return { found: true, value: schema.const };
  if ('default' in schema) return { found: true, value: schema.default };
  if (Array.isArray(schema.enum) && schema.enum.length) return { found: true, value: schema.enum[0] };
  return { found: false };
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
 * are followed in `doc` up to MAX_DEPTH; past it, objects become {} and arrays [].
 */
export function exampleFromSchema(schema: JsonSchema | undefined, doc: unknown, depth = 0): unknown {
  if (schema === undefined || typeof schema === 'boolean') return null;
  if (typeof schema.$ref === 'string') {
    if (depth >= MAX_DEPTH) return undefined;
    const target = resolvePointer(doc, schema.$ref);
    return isObject(target) ? exampleFromSchema(target, doc, depth + 1) : null;
  }
  const own = firstExample(schema);
  if (own.found) return own.value;
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((s) => exampleFromSchema(s as JsonSchema, doc, depth + 1));
    if (parts.every((p) => isObject(p))) return Object.assign({}, ...parts) as unknown;
    const first = parts.find((p) => p !== undefined);
    if (first !== undefined) return first;
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length) {
      const option = options.find((o) => !(isObject(o) && o.type === 'null')) ?? options[0];
      return exampleFromSchema(option as JsonSchema, doc, depth + 1);
    }
  }
  switch (typeOf(schema)) {
    case 'object': {
      if (depth >= MAX_DEPTH) return {};
      const out: Record<string, unknown> = {};
      const props = isObject(schema.properties) ? schema.properties : {};
      for (const [name, sub] of Object.entries(props)) {
        const value = exampleFromSchema(sub as JsonSchema, doc, depth + 1);
        if (value !== undefined) out[name] = value;
      }
      return out;
    }
    case 'array': {
      if (depth >= MAX_DEPTH) return [];
      const item = exampleFromSchema((schema.items ?? {}) as JsonSchema, doc, depth + 1);
      const count =
        typeof schema.minItems === 'number' && schema.minItems > 1 ? Math.min(schema.minItems, 3) : 1;
      return item === undefined ? [] : Array.from({ length: count }, () => item);
    }
    case 'string': {
      const format = typeof schema.format === 'string' ? FORMAT_EXAMPLES[schema.format] : undefined;
      if (format !== undefined) return format;
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      return min > 6 ? 'x'.repeat(min) : 'string';
    }
    case 'integer':
    case 'number': {
      if (typeof schema.minimum === 'number') return schema.minimum;
      if (typeof schema.exclusiveMinimum === 'number') return schema.exclusiveMinimum + 1;
      if (typeof schema.maximum === 'number' && schema.maximum < 0) return schema.maximum;
      return 0;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return depth >= MAX_DEPTH ? undefined : {};
  }
}

export interface MockResponse {
  status: number;
  contentType: string | undefined;
  body: unknown;
  /** Documented response headers with their example values. */
  headers: Record<string, string>;
}

const SKIPPED_HEADERS = new Set(['content-type', 'content-length', 'transfer-encoding', 'connection']);

function exampleHeaders(response: Response | undefined, doc: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, header] of Object.entries(response?.headers ?? {})) {
    if (!header || SKIPPED_HEADERS.has(name.toLowerCase())) continue;
    const value = 'example' in header ? header.example : exampleFromSchema(header.schema, doc);
    if (value === undefined || value === null || typeof value === 'object') continue;
    const text = String(value);
    // Only values that are valid in an HTTP header.
    if (/^[\t\x20-\x7e]*$/.test(text)) out[name] = text;
  }
  return out;
}

const isJson = (type: string) => /^application\/(.+\+)?json$/i.test(type.split(';')[0]!.trim());

function pickMedia(content: Record<string, MediaType> | undefined, accept: string | undefined) {
  const types = Object.keys(content ?? {});
  if (!types.length) return undefined;
  const wanted = (accept ?? '')
    .split(',')
    .map((a) => a.split(';')[0]!.trim().toLowerCase())
    .filter((a) => a && a !== '*/*');
  const chosen =
    types.find((t) => wanted.includes(t.toLowerCase())) ??
    types.find((t) => t.toLowerCase() === 'application/json') ??
    types.find(isJson) ??
    types[0]!;
  return { type: chosen, media: content![chosen]! };
}

function statusOf(key: string): number {
  if (/^\d{3}$/.test(key)) return Number(key);
  if (/^[1-5]XX$/i.test(key)) return Number(key[0]) * 100;
  return 200; // 'default'
}

/**
 * The documented answer of an operation: the lowest 2xx response (else 'default', else the first),
 * or the one asked for with `Prefer: code=404` (as Prism does); its example, else one generated
 * from its schema, in the content type the client accepts when documented.
 */
export function mockResponse(
  operation: Operation,
  doc: unknown,
  options: {
    accept?: string | undefined;
    preferCode?: string | undefined;
    preferExample?: string | undefined;
  },
): MockResponse {
  const responses = operation.responses ?? {};
  const keys = Object.keys(responses);
  const success = keys.filter((k) => /^2(\d\d|XX)$/i.test(k)).sort();
  const key =
    (options.preferCode && keys.includes(options.preferCode) ? options.preferCode : undefined) ??
    success[0] ??
    (keys.includes('default') ? 'default' : keys[0]);
  if (key === undefined) return { status: 200, contentType: undefined, body: undefined, headers: {} };
  const status = statusOf(key);
  const headers = exampleHeaders(responses[key], doc);
  const picked = pickMedia(responses[key]?.content, options.accept);
  if (!picked || status === 204 || status === 304)
    return { status, contentType: undefined, body: undefined, headers };
  const { media, type } = picked;
  let body: unknown;
  const named = media.examples ?? {};
  const exampleNames = Object.keys(named);
  if (options.preferExample && named[options.preferExample]) {
    body = named[options.preferExample]!.value;
  } else if ('example' in media) {
    body = media.example;
  } else if (exampleNames.length) {
    const first = named[exampleNames[0]!];
    body =
      first && typeof first.$ref === 'string'
        ? (resolvePointer(doc, first.$ref) as { value?: unknown })?.value
        : first?.value;
  } else {
    body = exampleFromSchema(media.schema, doc);
  }
  return { status, contentType: type, body, headers };
}

/** Serializes a mock body for its content type. */
export function serializeBody(contentType: string | undefined, body: unknown): string | undefined {
  if (body === undefined || contentType === undefined) return undefined;
  if (isJson(contentType) || typeof body !== 'string') {
    return typeof body === 'string' && !isJson(contentType) ? body : JSON.stringify(body);
  }
  return body;
}
