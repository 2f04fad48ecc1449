import type { FastifyInstance } from 'fastify';

/**
 * Uploads taken as their bytes: in `scope` (a plugin of its own, so no other route is touched),
 * a body of `contentType` ('*' for any) is handed to the route as a Buffer of at most `limit`
 * bytes. The route repeats the limit as its `bodyLimit` and answers what is over it with
 * `bodyTooLarge`: a Content-Length over the limit is refused before anything is read.
 */
export function acceptBytes(scope: FastifyInstance, contentType: string, limit: number): void {
  scope.addContentTypeParser(contentType, { parseAs: 'buffer', bodyLimit: limit }, (_request, body, done) =>
    done(null, body),
  );
}

/** A route's error handler that answers a body over the route's limit with `tooLarge()` (a 413). */
export function bodyTooLarge(tooLarge: () => Error): (error: Error) => never {
  return (error) => {
    if ((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw tooLarge();
    throw error;
  };
}
