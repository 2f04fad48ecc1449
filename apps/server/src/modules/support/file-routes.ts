import { randomUUID } from 'node:crypto';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance } from 'fastify';
import { HttpError, notFound, unauthorized } from '../../lib/errors.ts';
import { acceptBytes, bodyTooLarge } from '../../lib/raw-body.ts';
import { storageKeyFor } from '../../lib/storage.ts';
// Ticket attachments follow the organization documents' rules exactly: one definition of them.
import {
  MAX_UPLOAD_BYTES,
  MIME_TYPES,
  contentMatches,
  extensionAllowed,
  extensionOf,
  fileNameFromDisposition,
} from '../../lib/uploads.ts';
import { requireUser } from '../../plugins/session.ts';
import { LIMITS, limit } from './service.ts';
import { supportDb } from './tables.ts';
import { assertMayUseTickets, findVisibleTicket } from './tickets.ts';

const O = en.organizations;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function uploadError(status: number, detail: string, code?: string): HttpError {
  return new HttpError(status, `${O.uploadFailed}: ${detail}`, code ? { code } : {});
}

/**
 * Attachments: POST /api/support_ticket/file (the raw bytes, Content-Type application/octet-stream,
 * Content-Disposition: file; filename="x.pdf") answers { uuid }, named later in the create call's
 * `attachments`; GET /api/support_ticket/{id}/files/{uuid} serves one to the reporter and staff.
 */
export async function fileRoutes(app: FastifyInstance): Promise<void> {
  await app.register(async (scope) => {
    acceptBytes(scope, 'application/octet-stream', MAX_UPLOAD_BYTES);
    scope.post(
      '/api/support_ticket/file',
      {
        bodyLimit: MAX_UPLOAD_BYTES,
        // The caller is checked before the body (up to 10 MiB) is read.
        onRequest: async (request) => {
          if (!request.user) throw unauthorized();
          await assertMayUseTickets(app, request.user);
        },
        errorHandler: bodyTooLarge(() => uploadError(413, O.fileTooLarge, 'payload_too_large')),
      },
      async (request, reply) => {
        const user = requireUser(request);
        const data = request.body;
        if (!Buffer.isBuffer(data))
          throw new HttpError(
            415,
            'Send the file as the raw body with Content-Type: application/octet-stream.',
          );
        const fileName = fileNameFromDisposition(request.headers['content-disposition']);
        if (!fileName) throw uploadError(422, O.fileNameMissing);
        const ext = extensionOf(fileName);
        if (!extensionAllowed('field_documents', ext)) throw uploadError(422, O.extensionNotAllowed);
        if (data.length === 0) throw uploadError(422, O.fileEmpty);
        if (!contentMatches(ext, data)) throw uploadError(422, O.contentMismatch);
        await limit(app, `ticket-file:user:${user.id}`, LIMITS.uploadsPerUser, en.support.tooManyUploads);
        const uuid = randomUUID();
        const key = storageKeyFor(uuid);
        await app.storage.put(key, data);
        try {
          await supportDb(app.db)
            .insertInto('support_ticket_files')
            .values({
              uuid,
              uploader_id: user.id,
              file_name: fileName,
              mime: MIME_TYPES[ext] ?? 'application/octet-stream',
              size: data.length,
              storage_key: key,
            })
            .execute();
        } catch (err) {
          await app.storage.delete(key).catch(() => {});
          throw err;
        }
        return reply.status(201).send({ uuid, file_name: fileName, size: data.length });
      },
    );
  });

  app.get<{ Params: { id: string; uuid: string } }>(
    '/api/support_ticket/:id/files/:uuid',
    async (request, reply) => {
      const user = requireUser(request);
      const { row } = await findVisibleTicket(app, user, request.params.id);
      if (!UUID.test(request.params.uuid)) throw notFound();
      const file = await supportDb(app.db)
        .selectFrom('support_ticket_files')
        .selectAll()
        .where('uuid', '=', request.params.uuid.toLowerCase())
        .where('ticket_id', '=', row.id)
        .executeTakeFirst();
      if (!file) throw notFound();
      const stream = await app.storage.get(file.storage_key);
      if (!stream) throw notFound();
      return reply
        .header('Content-Type', file.mime)
        .header('Content-Length', String(file.size))
        .header(
          'Content-Disposition',
          `attachment; filename="${file.file_name.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.file_name)}`,
        )
        .header('Cache-Control', 'private, no-store')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .send(stream);
    },
  );
}
