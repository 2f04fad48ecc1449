import type { z } from 'zod';
import { HttpError } from './errors.ts';

/**
 * Parses a request body with a contracts schema; the first problem becomes a 400 whose message is
 * the schema's own (e.g. 'Required') and whose source.pointer names the field ('/title').
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map(String).join('/');
  return throwInvalid(issue.message, field);
}

function throwInvalid(message: string, field: string): never {
  throw new HttpError(400, message, {
    code: 'invalid_input',
    ...(field ? { pointer: `/${field}` } : {}),
  });
}
