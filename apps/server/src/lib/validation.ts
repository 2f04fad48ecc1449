import type { z } from 'zod';
import { HttpError } from './errors.ts';

/**
 * Parses a request body with a contracts schema; the first problem becomes a 400 whose message is
 * the schema's own (e.g. 'Required') and whose source.pointer names the field ('/title').
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  // With the input in the issue: zod's message of a wrong type names what it got, in any language.
  const parsed = schema.safeParse(body ?? {}, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map(String).join('/');
  throw new HttpError(400, issue.message, {
    code: 'invalid_input',
    issues: [issue],
    ...(field ? { pointer: `/${field}` } : {}),
  });
}
