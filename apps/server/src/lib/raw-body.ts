import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';

/**
 * Uploads taken as their bytes: in `scope` (a plugin of its own, so no other route is touched),
 * a body of `contentType` ('*' for any) is handed to the route as a Buffer of at most `limit`
 * bytes. The route repeats the limit as its `bodyLimit` and answers what is over it with
 * `bodyTooLarge`: a Content-Length over the limit is refused before anything is read.
 *
 * The rules are Fastify's own (`parseAs: 'buffer'`: the limit on the declared and on the received
 * length, a body shorter or longer than its Content-Length refused); what differs is where the
 * bytes go. Fastify keeps the chunks and joins them at the end, one copy of the whole body in one
 * turn of the event loop (15 ms for GitHub's 13 MB description, issue 29). Here, when the length is
 * declared, each chunk is copied as it arrives into one buffer of that length that is the whole of
 * its ArrayBuffer, so the route can move it to a worker thread without a copy (openapi/pool.ts).
 */
export function acceptBytes(scope: FastifyInstance, contentType: string, limit: number): void {
  scope.addContentTypeParser(contentType, { bodyLimit: limit }, (request, payload, done) => {
    readBytes(request, payload, limit).then(
      (body) => done(null, body),
      (err: Error) => done(err, undefined),
    );
  });
}

function readBytes(request: FastifyRequest, payload: Readable, limit: number): Promise<Buffer> {
  const header = request.headers['content-length'];
  const declared = header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
  if (declared !== undefined && declared > limit)
    return Promise.reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  // Its own ArrayBuffer, never Node's shared pool (whose slices cannot be moved to a thread),
  // taken when the first bytes come: a declared length alone reserves nothing.
  let whole: Buffer | undefined;
  const chunks: Buffer[] = [];
  let received = 0;
  return new Promise<Buffer>((resolve, reject) => {
    const stop = () => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onError);
    };
    const fail = (err: Error) => {
      stop();
      reject(err);
    };
    const onData = (data: Buffer | string) => {
      const chunk = typeof data === 'string' ? Buffer.from(data) : data;
      if (received + chunk.length > limit) return fail(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      if (declared !== undefined) {
        if (received + chunk.length > declared)
          return fail(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
        whole ??= Buffer.allocUnsafeSlow(declared);
        chunk.copy(whole, received);
      } else chunks.push(chunk);
      received += chunk.length;
    };
    const onEnd = () => {
      stop();
      if (declared !== undefined && received !== declared) {
        reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      } else resolve(whole ?? Buffer.concat(chunks, received));
    };
    const onError = (err: Error & { statusCode?: number }) => {
      if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
      fail(err);
    };
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
    payload.resume();
  });
}

/** A route's error handler that answers a body over the route's limit with `tooLarge()` (a 413). */
export function bodyTooLarge(tooLarge: () => Error): (error: Error) => never {
  return (error) => {
    if ((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw tooLarge();
    throw error;
  };
}
