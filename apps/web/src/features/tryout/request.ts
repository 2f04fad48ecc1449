import {
  exampleAllowed,
  IGNORED_HEADERS,
  splitPseudoFragment,
  type OperationDetail,
  type ParameterDetail,
} from '@portico/contracts/catalog';

/**
 * The try-out request (spec B 7 "Other notes on calls"): the server URL of the description (our
 * sandbox, variables at their defaults), path parameters, query string, header parameters, a JSON
 * body, Content-Type and Accept application/json; and the cookies a document declares (parameters
 * and API keys, issue 11), which the browser sends (tryout/cookies.ts). Pure functions: the
 * console, the code samples, the curl copy and the history all use the same built request.
 */

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export interface TryoutForm {
  header: Record<string, string>;
  query: Record<string, string>;
  path: Record<string, string>;
  /**
   * Cookie parameters, only for an operation that declares some: the spec's saved form has the
   * header, query, path and body parts, and forms saved or shared before have no other.
   */
  cookie?: Record<string, string>;
  /** The JSON body as typed; '' for none. */
  body: string;
}

export interface BuiltRequest {
  method: string;
  url: string;
  headers: [string, string][];
  /** Name and value (as typed, not encoded): a page cannot set a Cookie header, the browser sends them. */
  cookies: [string, string][];
  body: string | null;
}

export interface FieldError {
  location: ParameterLocation | 'body';
  name: string;
}

export const emptyForm = (): TryoutForm => ({ header: {}, query: {}, path: {}, body: '' });

/** The body editor is offered for these methods only (spec B 2.16). */
export function hasBody(method: string): boolean {
  return ['post', 'patch', 'put'].includes(method.toLowerCase());
}

/** Parameters the console fills: all of the operation's. */
export function formParameters(op: Pick<OperationDetail, 'parameters'>): (ParameterDetail & {
  in: ParameterLocation;
})[] {
  return op.parameters.filter((p): p is ParameterDetail & { in: ParameterLocation } =>
    ['path', 'query', 'header', 'cookie'].includes(p.in),
  );
}

/** The form's values in one place (none yet: empty). */
export function valuesIn(form: TryoutForm, location: ParameterLocation): Record<string, string> {
  return form[location] ?? {};
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * A parameter's first value: its example or first named example, its schema's default, example or
 * first example, each only if the schema's enum allows it; else a required enum's first value.
 */
export function initialValue(p: ParameterDetail): string {
  const schema = asRecord(p.schema);
  // A document's example that its own enum refuses (exampleAllowed) would be refused by the sandbox.
  const allowed = (value: unknown) => exampleAllowed(schema, value);
  if (p.example !== undefined && allowed(p.example)) return text(p.example);
  // The first named example (ParameterDetail.examples holds the Example Objects' values).
  const first = p.examples ? Object.values(p.examples)[0] : undefined;
  if (first !== undefined && allowed(first)) return text(first);
  if (!schema) return '';
  if ('default' in schema && allowed(schema.default)) return text(schema.default);
  if ('example' in schema && allowed(schema.example)) return text(schema.example);
  if (Array.isArray(schema.examples) && schema.examples.length > 0 && allowed(schema.examples[0]))
    return text(schema.examples[0]);
  // An enum of a required parameter starts at its first value; optional ones start empty.
  if (p.required && Array.isArray(schema.enum) && schema.enum.length > 0) return text(schema.enum[0]);
  return '';
}

/** The JSON media type of the request body, if any. */
export function jsonMedia(op: Pick<OperationDetail, 'requestBody'>) {
  const content = op.requestBody?.content ?? {};
  const type = Object.keys(content).find((t) => /json/i.test(t)) ?? Object.keys(content)[0];
  return type ? { type, media: content[type]! } : null;
}

/** The body's first value: the media type's example, else its first named example, else the schema's. */
export function initialBody(op: Pick<OperationDetail, 'method' | 'requestBody'>): string {
  if (!hasBody(op.method)) return '';
  const found = jsonMedia(op);
  if (!found) return '';
  const { media } = found;
  let value: unknown;
  if (media.example !== undefined) value = media.example;
  else if (media.examples && Object.keys(media.examples).length > 0)
    value = Object.values(media.examples)[0]?.value;
  else {
    const schema = asRecord(media.schema);
    if (schema && 'example' in schema) value = schema.example;
    else if (schema && Array.isArray(schema.examples)) value = schema.examples[0];
  }
  return value === undefined ? '' : JSON.stringify(value, null, 2);
}

/** The form of an operation as it first opens: every value pre-filled where the document says one. */
export function initialForm(op: Pick<OperationDetail, 'method' | 'parameters' | 'requestBody'>): TryoutForm {
  const form = emptyForm();
  for (const p of formParameters(op)) (form[p.in] ??= {})[p.name] = initialValue(p);
  form.body = initialBody(op);
  return form;
}

/** Required parameters (and a required body) left empty: listed as errors, nothing is sent. */
export function requiredErrors(
  op: Pick<OperationDetail, 'method' | 'parameters' | 'requestBody'>,
  form: TryoutForm,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const p of formParameters(op)) {
    if ((p.required || p.in === 'path') && !(valuesIn(form, p.in)[p.name] ?? '').trim()) {
      errors.push({ location: p.in, name: p.name });
    }
  }
  if (hasBody(op.method) && op.requestBody?.required && !form.body.trim()) {
    errors.push({ location: 'body', name: 'body' });
  }
  return errors;
}

function arrayItems(p: ParameterDetail, value: string): string[] | null {
  const schema = asRecord(p.schema);
  if (schema?.type !== 'array') return null;
  const trimmed = value.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed)) return parsed.map(text);
    } catch {
      // Not JSON: a comma-separated list.
    }
  }
  return trimmed.split(',').map((s) => s.trim());
}

/**
 * The request for the filled-in form. `authorization`, when given, is the whole header value
 * ('Bearer eyJ…'); extra headers and cookies (an API key) come after the documented ones.
 */
export function buildRequest(
  op: Pick<OperationDetail, 'method' | 'path' | 'server' | 'parameters' | 'requestBody'>,
  form: TryoutForm,
  options: {
    authorization?: string | null;
    extraHeaders?: [string, string][];
    extraCookies?: [string, string][];
  } = {},
): BuiltRequest {
  const params = formParameters(op);
  // A pseudo-fragment ('/#Action=Attach', '/{Bucket}#notification') is no part of the URL; what it
  // names is sent below, as the sandbox routes on it (splitPseudoFragment).
  const fragment = splitPseudoFragment(op.path);
  const path = fragment.path.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const value = form.path[name];
    return value === undefined || value === '' ? whole : encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const p of params.filter((p) => p.in === 'query')) {
    const value = form.query[p.name] ?? '';
    if (value === '') continue;
    const items = arrayItems(p, value);
    if (items && p.explode !== false) for (const item of items) search.append(p.name, item);
    else search.append(p.name, items ? items.join(',') : value);
  }
  const headers: [string, string][] = [['Accept', 'application/json']];
  const body = hasBody(op.method) && form.body.trim() ? form.body : null;
  if (body !== null) headers.push(['Content-Type', jsonMedia(op)?.type ?? 'application/json']);
  for (const p of params.filter((p) => p.in === 'header')) {
    const value = form.header[p.name] ?? '';
    if (value !== '' && !/^(accept|content-type)$/i.test(p.name)) headers.push([p.name, value]);
  }
  for (const [name, value] of options.extraHeaders ?? []) headers.push([name, value]);
  for (const term of fragment.terms) {
    const lower = term.name.toLowerCase();
    if (search.has(term.name) || headers.some(([name]) => name.toLowerCase() === lower)) continue;
    // Content-Type and the like come with the request ('#format=sdk&Content-Type', CloudSearch).
    if (IGNORED_HEADERS.test(term.name)) continue;
    search.append(term.name, term.value ?? '');
  }
  if (options.authorization) headers.push(['Authorization', options.authorization]);
  const cookies: [string, string][] = params
    .filter((p) => p.in === 'cookie' && (form.cookie?.[p.name] ?? '') !== '')
    .map((p) => [p.name, form.cookie![p.name]!]);
  cookies.push(...(options.extraCookies ?? []));
  const query = search.toString();
  return {
    method: op.method.toUpperCase(),
    url: `${op.server.replace(/\/$/, '')}${path}${query ? `?${query}` : ''}`,
    headers,
    cookies,
    body,
  };
}

/** POSIX shell single quoting. */
function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The request as one curl command (the 'copy as curl' of the request panel). */
export function toCurl(request: BuiltRequest): string {
  const parts = [`curl -X ${request.method} ${shellQuote(request.url)}`];
  for (const [name, value] of request.headers) parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  if (request.cookies.length > 0) parts.push(`-b ${shellQuote(cookieHeader(request.cookies))}`);
  if (request.body !== null) parts.push(`--data-raw ${shellQuote(request.body)}`);
  return parts.join(' \\\n  ');
}

/** The request as text: what the request panel shows. */
export function describeRequest(request: BuiltRequest): string {
  const lines = [`${request.method} ${request.url}`, ...request.headers.map(([n, v]) => `${n}: ${v}`)];
  if (request.cookies.length > 0) lines.push(`Cookie: ${cookieHeader(request.cookies)}`);
  if (request.body !== null) lines.push('', request.body);
  return lines.join('\n');
}

/**
 * The Cookie header of these cookies: values percent-encoded, as the sandbox reads them (a
 * cookie's value cannot hold a space, a quote, a comma, a semicolon or a backslash).
 */
export function cookieHeader(cookies: [string, string][]): string {
  return cookies.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('; ');
}
