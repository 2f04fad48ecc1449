import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { HttpError } from '../lib/errors.ts';
import { JSONAPI_MEDIA_TYPE, JSONAPI_VERSION } from './document.ts';
import type { ZodIssue } from '../lib/zod-language.ts';

export interface JsonApiError {
  status: string;
  code: string;
  /** The human-readable message: the web app shows the first error's title. */
  title: string;
  detail: string;
  source?: { parameter?: string; pointer?: string };
  /** Facts that locate the error beyond source (e.g. the line and column in an uploaded document). */
  meta?: Record<string, unknown>;
}

export interface JsonApiErrorDocument {
  jsonapi: { version: '1.0' };
  errors: JsonApiError[];
}

/** Builds the JSON:API error document for an HttpError, or a generic one for a status. */
export function errorDocument(error: HttpError | { status: number; message?: string }): JsonApiErrorDocument {
  const status = error.status;
  if (error instanceof HttpErrorList) {
    return {
      jsonapi: { version: '1.0' },
      errors: error.entries.map((e) => ({
        status: String(status),
        code: error.code,
        title: error.message,
        detail: e.detail,
        ...(e.pointer !== undefined ? { source: { pointer: e.pointer } } : {}),
        ...(e.meta ? { meta: e.meta } : {}),
      })),
    };
  }
  const message =
    error instanceof HttpError ? error.message : (error.message ?? STATUS_CODES[status] ?? 'Error');
  const entry: JsonApiError = {
    status: String(status),
    code: error instanceof HttpError ? error.code : 'error',
    title: message,
    detail: message,
  };
  if (error instanceof HttpError && (error.parameter || error.pointer)) {
    entry.source = {
      ...(error.parameter ? { parameter: error.parameter } : {}),
      ...(error.pointer ? { pointer: error.pointer } : {}),
    };
  }
  return { jsonapi: { version: '1.0' }, errors: [entry] };
}

/**
 * A query string the JSON:API layer cannot accept (bad syntax, unknown field, operator or value).
 * Always a 400 whose error names the offending parameter in source.parameter, e.g.
 * `filter[x][condition][operator]`, `page[limit]` or `sort`, so a client can tell what to fix.
 */
export class JsonApiQueryError extends HttpError {
  constructor(parameter: string, detail: string) {
    super(400, detail, { code: 'invalid_query', parameter });
    this.name = 'JsonApiQueryError';
  }
}

/** One entry of an HttpErrorList: what is wrong, and where. */
export interface ErrorListEntry {
  detail: string;
  pointer?: string;
  meta?: Record<string, unknown>;
}

/**
 * Several things wrong with one request (e.g. every problem the OpenAPI importer found in an
 * uploaded document), sent as one error each: the same status, code and title (the summary, which
 * the web app shows first), each with its own detail, source.pointer and meta. With no entries it
 * is one error like any HttpError.
 */
export class HttpErrorList extends HttpError {
  readonly entries: ErrorListEntry[];
  constructor(
    status: number,
    title: string,
    entries: ErrorListEntry[],
    options: { code?: string; issues?: readonly ZodIssue[] } = {},
  ) {
    super(status, title, options);
    this.name = 'HttpErrorList';
    this.entries = entries.length ? entries : [{ detail: title }];
  }
}

/**
 * A member of a written resource object (POST / PATCH `data.attributes` or `data.relationships`)
 * that the route does not accept: unknown, or read-only for everyone. A 400 (code `unknown_field`)
 * pointing at it, never silently ignored. Fields a caller may not set but others may (a
 * moderator's `sticky`) are the route's 403.
 */
export class JsonApiFieldError extends HttpError {
  constructor(member: 'attributes' | 'relationships', name: string, type: string) {
    super(
      400,
      `${name} is not ${member === 'attributes' ? 'an attribute' : 'a relationship'} of ${type} that can be written.`,
      { code: 'unknown_field', pointer: `/data/${member}/${name}` },
    );
    this.name = 'JsonApiFieldError';
  }
}

/**
 * Throws JsonApiFieldError for the first attribute or relationship of `data` not in `accepted`.
 * Members that are not objects are left to the route's own schema.
 */
export function refuseUnknownFields(
  body: unknown,
  type: string,
  accepted: { attributes?: readonly string[]; relationships?: readonly string[] },
): void {
  const data = (body as { data?: unknown } | null | undefined)?.data;
  if (!data || typeof data !== 'object') return;
  for (const member of ['attributes', 'relationships'] as const) {
    const fields = (data as Record<string, unknown>)[member];
    if (!fields || typeof fields !== 'object' || Array.isArray(fields)) continue;
    const allowed = accepted[member] ?? [];
    for (const name of Object.keys(fields)) {
      if (!allowed.includes(name)) throw new JsonApiFieldError(member, name, type);
    }
  }
}

/** JSON:API error entries with a title and a separate detail (HttpError has only one message). */
export interface ErrorEntry {
  title: string;
  detail?: string;
  pointer?: string;
  parameter?: string;
  code?: string;
  /** The schema check whose message the title is: said in the request's language (lib/zod-language.ts). */
  issue?: ZodIssue;
}

export class ApiErrors extends Error {
  readonly status: number;
  readonly entries: ErrorEntry[];
  constructor(status: number, entries: ErrorEntry[]) {
    super(entries[0]?.title ?? 'Error');
    this.name = 'ApiErrors';
    this.status = status;
    this.entries = entries;
  }
}

/** Sends an ApiErrors as a JSON:API error document: one error per entry, with its title and detail. */
export function sendApiErrors(reply: FastifyReply, error: ApiErrors) {
  const errors = error.entries.map((e): JsonApiError => ({
    status: String(error.status),
    code: e.code ?? (error.status === 422 ? 'unprocessable' : 'error'),
    title: e.title,
    detail: e.detail ?? e.title,
    ...(e.pointer || e.parameter
      ? {
          source: {
            ...(e.pointer ? { pointer: e.pointer } : {}),
            ...(e.parameter ? { parameter: e.parameter } : {}),
          },
        }
      : {}),
  }));
  return reply.status(error.status).type(JSONAPI_MEDIA_TYPE).send({ jsonapi: JSONAPI_VERSION, errors });
}

/**
 * The set-up of a scope of routes that throw ApiErrors (organizations, applications, certificates):
 * those are answered as JSON:API errors with all their entries (pointers into the body, a title
 * and a separate detail), and a JSON content type with an empty body is accepted for the methods
 * `emptyBodyOn` (the web app's DELETE calls, a revoke's POST).
 */
export function apiErrorsScope(scope: FastifyInstance, emptyBodyOn: readonly string[]): void {
  scope.setErrorHandler((error: FastifyError | ApiErrors, _request, reply) => {
    if (error instanceof ApiErrors) return sendApiErrors(reply, error);
    throw error;
  });
  const json = scope.getDefaultJsonParser('error', 'error');
  for (const type of ['application/json', 'application/vnd.api+json']) {
    scope.removeContentTypeParser(type);
    scope.addContentTypeParser(type, { parseAs: 'string' }, (request, raw, done) => {
      if (raw === '' && emptyBodyOn.includes(request.method)) return done(null, undefined);
      return json(request, String(raw), done);
    });
  }
}
