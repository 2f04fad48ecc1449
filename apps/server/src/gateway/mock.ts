import { runInTurns, runToEnd } from '../lib/turns.ts';
import { resolvePointer, type MediaType, type Operation, type Response } from '../openapi/document.ts';
import { generating, type SchemaCheck } from '../openapi/schema-example.ts';

export interface MockResponse {
  status: number;
  contentType: string | undefined;
  body: unknown;
  /** Documented response headers with their example values. */
  headers: Record<string, string>;
}

/**
 * Documented response headers the sandbox does not repeat: the transport's and the framing's,
 * which the server writes for the body it sends (a documented `content-encoding: gzip` over a plain
 * body broke every client, telematicssdk.com's), and those that would act on the portal's origin
 * beyond this answer: cookies, security and CORS policies, caching, reports and alternative
 * services sent elsewhere.
 */
const SKIPPED_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'date',
  'server',
  'set-cookie',
  'set-cookie2',
  'cache-control',
  'expires',
  'pragma',
  'age',
  'etag',
  'last-modified',
  'vary',
  'alt-svc',
  'nel',
  'report-to',
  'reporting-endpoints',
  'expect-ct',
  'content-security-policy',
  'content-security-policy-report-only',
  'strict-transport-security',
  'x-frame-options',
  'x-content-type-options',
  'x-xss-protection',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'referrer-policy',
  'permissions-policy',
  'origin-agent-cluster',
  'clear-site-data',
  'refresh',
]);
const SKIPPED_HEADER_PREFIXES = /^(?:access-control-|cross-origin-|proxy-|sec-)/i;

function* exampleHeaders(
  response: Response | undefined,
  doc: unknown,
  check: SchemaCheck | undefined,
): Generator<void, Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, header] of Object.entries(response?.headers ?? {})) {
    if (!header || SKIPPED_HEADERS.has(name.toLowerCase()) || SKIPPED_HEADER_PREFIXES.test(name)) continue;
    const value = 'example' in header ? header.example : yield* generating(header.schema, doc, 0, check);
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
  const essence = (type: string) => type.split(';')[0]!.trim().toLowerCase();
  const wanted = (accept ?? '')
    .split(',')
    .map(essence)
    .filter((a) => a && a !== '*/*');
  const chosen =
    // A documented 'application/json;charset=UTF-8' is what 'Accept: application/json' asks for.
    types.find((t) => wanted.includes(essence(t))) ??
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

export interface MockOptions {
  accept?: string | undefined;
  preferCode?: string | undefined;
  preferExample?: string | undefined;
  /** Makes generated answers valid for their schema (see SchemaCheck). */
  check?: SchemaCheck | undefined;
}

/**
 * The documented answer of an operation: the lowest 2xx response (else 'default', else the first),
 * or the one asked for with `Prefer: code=404` (as Prism does); its example, else one generated
 * from its schema, in the content type the client accepts when documented.
 */
export function mockResponse(operation: Operation, doc: unknown, options: MockOptions): MockResponse {
  return runToEnd(mocking(operation, doc, options));
}

/**
 * mockResponse on the server's main thread, with a turn of the event loop after every slice of
 * work (lib/turns.ts): the sandbox's answers.
 */
export function mockResponseInTurns(
  operation: Operation,
  doc: unknown,
  options: MockOptions,
): Promise<MockResponse> {
  return runInTurns(mocking(operation, doc, options));
}

function* mocking(operation: Operation, doc: unknown, options: MockOptions): Generator<void, MockResponse> {
  const responses = operation.responses ?? {};
  const keys = Object.keys(responses);
  const success = keys.filter((k) => /^2(\d\d|XX)$/i.test(k)).sort();
  const key =
    (options.preferCode && keys.includes(options.preferCode) ? options.preferCode : undefined) ??
    success[0] ??
    (keys.includes('default') ? 'default' : keys[0]);
  if (key === undefined) return { status: 200, contentType: undefined, body: undefined, headers: {} };
  const status = statusOf(key);
  const headers = yield* exampleHeaders(responses[key], doc, options.check);
  const picked = pickMedia(responses[key]?.content, options.accept);
  if (!picked || status === 204 || status === 304)
    return { status, contentType: undefined, body: undefined, headers };
  const { media, type } = picked;
  const named = media.examples ?? {};
  const valueOf = (example: { value?: unknown; $ref?: string } | undefined) =>
    example && typeof example.$ref === 'string'
      ? (resolvePointer(doc, example.$ref) as { value?: unknown } | undefined)?.value
      : example?.value;
  // An example the client names (`Prefer: example=…`) is answered as written.
  if (options.preferExample && named[options.preferExample]) {
    return { status, contentType: type, body: valueOf(named[options.preferExample]), headers };
  }
  // Otherwise the document's own example when it is valid for the schema (a truncated base64
  // certificate, Azure's, is not), else one generated from the schema.
  const documented = [
    ...('example' in media ? [media.example] : []),
    ...Object.values(named).map(valueOf),
  ].filter((value) => value !== undefined);
  const valid = (value: unknown) =>
    !options.check || !media.schema || typeof media.schema !== 'object' || options.check(media.schema, value);
  const own = documented.find(valid);
  const body = own !== undefined ? own : yield* generating(media.schema, doc, 0, options.check);
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
