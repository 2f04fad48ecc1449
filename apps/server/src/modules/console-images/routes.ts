import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  CONSOLE_IMAGES_PAGE_DEFAULT,
  CONSOLE_IMAGES_PAGE_MAX,
  CONSOLE_IMAGES_PATH,
  type ConsoleImageList,
} from '@portico/contracts/console-images';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import type { ProviderRole } from '@portico/contracts/provider-roles';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { inTransaction } from '../../db/client.ts';
import { pageParam } from '../../lib/console-edits.ts';
import { HttpError, notFound } from '../../lib/errors.ts';
import { removeDeletedFiles } from '../../lib/file-removal.ts';
import { enforceRateLimit } from '../../lib/rate-limit.ts';
import { acceptBytes, bodyTooLarge } from '../../lib/raw-body.ts';
import { storageKeyFor } from '../../lib/storage.ts';
import {
  IMAGE_MIME_TYPES,
  MAX_UPLOAD_BYTES,
  fileNameFromDisposition,
  imageSize,
  imageTypeOf,
  isSvg,
  type ImageType,
} from '../../lib/uploads.ts';
import { requireProviderRole } from '../../plugins/session.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { TYPE_OF_EXTENSION, fileNameOf, imageJson } from './service.ts';
import { imagesDb } from './tables.ts';
import { imageUses, type ImageUse } from './usage.ts';
import { UUID } from '../../lib/ids.ts';

const M = en.console.images;
const O = en.organizations;
/** Who may upload and list images: the roles that edit content (administrators always). */
export const IMAGE_ROLES: readonly ProviderRole[] = ['content_editor', 'api_manager'];
/**
 * Uploads per user per hour (the support area's attachments: 30, support/service.ts LIMITS). An
 * editor illustrating a long article uploads a few dozen at most; 120 leaves room for that and
 * still stops a script or a stuck client from filling the storage (10 MiB each: at most 1.2 GiB an
 * hour per account). Counted in the database (lib/rate-limit.ts), so every instance counts together.
 */
export const IMAGE_UPLOADS_PER_HOUR = 120;
/** `<uuid>.<ext>` as served. */
const SERVED_NAME = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(png|jpg|gif|webp)$/;
/** An uploaded image never changes under its address: a year, immutable. */
const LONG_CACHE = 'public, max-age=31536000, immutable';

/** A refused upload: the same title and codes as the other uploads (lib/uploads.ts). */
function uploadError(status: number, detail: string, code?: string): HttpError {
  return new HttpError(status, `${O.uploadFailed}: ${detail}`, code ? { code } : {});
}

const guard = (request: FastifyRequest) => requireProviderRole(request, IMAGE_ROLES, M.forbidden);

/** The 409 of a delete: the items that still show the image, named (at most six). */
function inUseMessage(uses: ImageUse[]): string {
  const names = uses.slice(0, 6).map((use) => format(M.errors.usedIn[use.kind], { title: use.title }));
  const listed = names.join(', ');
  return format(M.errors.inUse, {
    uses: uses.length > names.length ? format(M.errors.andOthers, { uses: listed }) : listed,
  });
}

/**
 * POST /admin-api/images (the raw bytes, as every upload: decision 033), GET /admin-api/images (the
 * uploaded ones, newest first), DELETE /admin-api/images/:id (one no content shows) and
 * GET /images/console/<uuid>.<ext> (public). README.md.
 */
export async function imageRoutes(app: FastifyInstance): Promise<void> {
  await app.register(async (scope) => {
    acceptBytes(scope, '*', MAX_UPLOAD_BYTES);
    scope.post(
      '/admin-api/images',
      {
        bodyLimit: MAX_UPLOAD_BYTES,
        // The role is checked before the body (up to 10 MiB) is read.
        onRequest: async (request) => {
          guard(request);
        },
        errorHandler: bodyTooLarge(() => uploadError(413, O.fileTooLarge, 'payload_too_large')),
      },
      async (request, reply) => {
        const user = guard(request);
        const data = request.body;
        if (!Buffer.isBuffer(data))
          throw new HttpError(
            415,
            'Send the image as the raw body (for example Content-Type: application/octet-stream).',
          );
        const fileName = fileNameFromDisposition(request.headers['content-disposition']);
        if (!fileName) throw uploadError(422, O.fileNameMissing);
        if (data.length === 0) throw uploadError(422, O.fileEmpty);
        // The bytes decide, never the name or the Content-Type the client sent.
        const type = imageTypeOf(data);
        if (!type)
          throw uploadError(
            415,
            isSvg(data) ? M.errors.svgRefused : M.errors.notAnImage,
            'unsupported_image',
          );
        // Counted once the image is one (as the support area counts its attachments): 429 with
        // Retry-After past the limit, nothing stored.
        await enforceRateLimit(
          app.db,
          `console-image:user:${user.id}`,
          IMAGE_UPLOADS_PER_HOUR,
          format(M.errors.tooManyUploads, { max: IMAGE_UPLOADS_PER_HOUR }),
        );
        const dimensions = imageSize(type, data);
        const uuid = randomUUID();
        const key = storageKeyFor(uuid);
        await app.storage.put(key, data);
        let row;
        try {
          row = await inTransaction(app.db, async (trx) => {
            const inserted = await imagesDb(trx)
              .insertInto('console_images')
              .values({
                uuid,
                storage_key: key,
                file_name: fileName,
                type,
                size: data.length,
                width: dimensions?.width ?? null,
                height: dimensions?.height ?? null,
                uploaded_by: user.id,
              })
              .returning(['uuid', 'file_name', 'type', 'size', 'width', 'height', 'created'])
              .executeTakeFirstOrThrow();
            const image = imageJson({ ...inserted, uploader: user.name });
            await recordAudit(trx, actorOf(request), {
              action: 'image.uploaded',
              targetType: 'image',
              targetId: uuid,
              targetLabel: fileName,
              after: { url: image.url, name: image.name, type: image.type, size: image.size },
            });
            return image;
          });
        } catch (err) {
          await app.storage.delete(key).catch(() => {});
          throw err;
        }
        return reply.status(201).header('Location', row.url).send({ data: row });
      },
    );
  });

  app.get<{ Querystring: Record<string, unknown> }>('/admin-api/images', async (request, reply) => {
    guard(request);
    const limit = pageParam(
      request.query['page[limit]'],
      'page[limit]',
      CONSOLE_IMAGES_PAGE_DEFAULT,
      CONSOLE_IMAGES_PAGE_MAX,
    );
    const offset = pageParam(request.query['page[offset]'], 'page[offset]', 0, 1_000_000);
    const db = imagesDb(app.db);
    const [rows, count] = await Promise.all([
      db
        .selectFrom('console_images as i')
        .leftJoin('users as u', 'u.id', 'i.uploaded_by')
        .select([
          'i.uuid',
          'i.file_name',
          'i.type',
          'i.size',
          'i.width',
          'i.height',
          'i.created',
          'u.name as uploader',
        ])
        .orderBy('i.created', 'desc')
        .orderBy('i.id', 'desc')
        .limit(limit || CONSOLE_IMAGES_PAGE_DEFAULT)
        .offset(offset)
        .execute(),
      db
        .selectFrom('console_images')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    reply.header('Cache-Control', 'no-store');
    const body: ConsoleImageList = { data: rows.map(imageJson), meta: { count: Number(count.n) } };
    return body;
  });

  // An image no article, page, FAQ answer or story shows (published, draft or scheduled) is deleted:
  // its row with the audit entry, then its file through the queue of deleted rows' files.
  app.delete<{ Params: { id: string } }>('/admin-api/images/:id', async (request, reply) => {
    guard(request);
    const id = request.params.id.toLowerCase();
    if (!UUID.test(id)) throw notFound(M.errors.notFound);
    await inTransaction(app.db, async (trx) => {
      const row = await imagesDb(trx)
        .selectFrom('console_images')
        .select(['uuid', 'file_name', 'type', 'size'])
        .where('uuid', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!row) throw notFound(M.errors.notFound);
      const uses = await imageUses(trx, id);
      if (uses.length) throw new HttpError(409, inUseMessage(uses), { code: 'image_in_use' });
      // The row's trigger (migration 0290) queues its stored file for removal, in this transaction.
      await imagesDb(trx).deleteFrom('console_images').where('uuid', '=', id).execute();
      await recordAudit(trx, actorOf(request), {
        action: 'image.deleted',
        targetType: 'image',
        targetId: id,
        targetLabel: row.file_name,
        before: {
          url: `${CONSOLE_IMAGES_PATH}${fileNameOf(id, row.type)}`,
          name: row.file_name,
          type: IMAGE_MIME_TYPES[row.type],
          size: row.size,
        },
      });
    });
    // Committed: the file goes now (else the next run of every instance takes it).
    await removeDeletedFiles(app);
    return reply.status(204).send();
  });

  // Public: an image put in an article is seen by everyone who reads it.
  app.get<{ Params: { name: string } }>(`${CONSOLE_IMAGES_PATH}:name`, async (request, reply) => {
    const match = SERVED_NAME.exec(request.params.name);
    if (!match) throw notFound();
    const [, uuid, ext] = match as unknown as [string, string, string];
    const type = TYPE_OF_EXTENSION[ext]!;
    const row = await imagesDb(app.db)
      .selectFrom('console_images')
      .select(['storage_key', 'type', 'size'])
      .where('uuid', '=', uuid)
      .executeTakeFirst();
    if (row) {
      if (row.type !== type) throw notFound();
      const stream = await app.storage.get(row.storage_key);
      if (!stream) throw notFound();
      return sendImage(reply, type, row.size).send(stream);
    }
    // Not uploaded here: an image exported to content/images/console by another portal (export.ts).
    let bytes: Buffer;
    try {
      bytes = await fs.readFile(
        path.join(app.config.contentDir, 'images', 'console', fileNameOf(uuid, type)),
      );
    } catch {
      throw notFound();
    }
    if (imageTypeOf(bytes) !== type) throw notFound();
    return sendImage(reply, type, bytes.length).send(bytes);
  });
}

function sendImage(reply: FastifyReply, type: ImageType, size: number): FastifyReply {
  return reply
    .header('Content-Type', IMAGE_MIME_TYPES[type])
    .header('Content-Length', String(size))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', LONG_CACHE)
    .header('Content-Security-Policy', "default-src 'none'; sandbox");
}
