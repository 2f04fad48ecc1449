import { STATUS_CODES } from 'node:http';
import { HttpError } from '../lib/errors.ts';

export interface JsonApiError {
  status: string;
  code: string;
  /** The human-readable message: the web app shows the first error's title. */
  title: string;
  detail: string;
  source?: { parameter?: string; pointer?: string };
}

export interface JsonApiErrorDocument {
  jsonapi: { version: '1.0' };
  errors: JsonApiError[];
}

/** Builds the JSON:API error document for an HttpError, or a generic one for a status. */
export function errorDocument(error: HttpError | { status: number; message?: string }): JsonApiErrorDocument {
  const status = error.status;
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
