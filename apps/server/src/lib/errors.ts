import type { ZodIssue } from './zod-language.ts';
/**
 * Errors a handler throws on purpose. The error handler turns them into JSON:API error documents
 * with their status; anything else becomes a 500 whose message never reaches the client.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  /** The request parameter or field at fault, reported as source.parameter / source.pointer. */
  readonly parameter: string | undefined;
  readonly pointer: string | undefined;
  /** The failed schema checks whose messages the message holds: said in the request's language (lib/zod-language.ts). */
  readonly issues: readonly ZodIssue[];

  constructor(
    status: number,
    message: string,
    options: { code?: string; parameter?: string; pointer?: string; issues?: readonly ZodIssue[] } = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = options.code ?? defaultCode(status);
    this.parameter = options.parameter;
    this.pointer = options.pointer;
    this.issues = options.issues ?? [];
  }
}

function defaultCode(status: number): string {
  switch (status) {
    case 400:
      return 'bad_request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 422:
      return 'unprocessable';
    case 429:
      return 'too_many_requests';
    default:
      return 'error';
  }
}

export const badRequest = (message: string, parameter?: string): HttpError =>
  new HttpError(400, message, parameter === undefined ? {} : { parameter });
export const unauthorized = (message = 'You must be logged in to do this.'): HttpError =>
  new HttpError(401, message);
export const forbidden = (message = 'You are not allowed to do this.'): HttpError =>
  new HttpError(403, message);
export const notFound = (message = 'The requested resource was not found.'): HttpError =>
  new HttpError(404, message);
