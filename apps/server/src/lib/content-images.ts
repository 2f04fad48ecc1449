import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { en } from '@portico/contracts/messages';
import { HttpError } from './errors.ts';

const IMAGE_TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
};

/**
 * Serves the images of a folder of content/ (product images, article heroes, author pictures) at
 * `${urlPrefix}:name`: a plain file name of a known image type, else 404. SVGs are served as
 * images, never as documents that could run script.
 */
export function serveContentImages(app: FastifyInstance, urlPrefix: string, dir: string): void {
  app.get<{ Params: { name: string } }>(`${urlPrefix}:name`, async (request, reply) => {
    const { name } = request.params;
    const type = IMAGE_TYPES[path.extname(name).toLowerCase()];
    if (!type || !/^[A-Za-z0-9._-]+$/.test(name)) throw new HttpError(404, en.api.notFound);
    let body: Buffer;
    try {
      body = await fs.readFile(path.join(dir, name));
    } catch {
      throw new HttpError(404, en.api.notFound);
    }
    return reply
      .type(type)
      .header('Cache-Control', 'public, max-age=3600')
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
      .send(body);
  });
}
