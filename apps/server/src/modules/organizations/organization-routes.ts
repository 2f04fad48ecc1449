import { randomUUID } from 'node:crypto';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Transaction } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import {
  collectionDocument,
  requestUrl,
  resourceDocument,
  sendDocument,
  type JsonApiDocument,
  type ResourceObject,
  baseUrl,
} from '../../jsonapi/document.ts';
import { refuseUnknownFields, ApiErrors, type ErrorEntry } from '../../jsonapi/errors.ts';
import { fetchCollection } from '../../jsonapi/kysely.ts';
import { parseJsonApiQuery, type JsonApiQuery } from '../../jsonapi/query.ts';
import { HttpError, badRequest, notFound, unauthorized } from '../../lib/errors.ts';
import { removeDeletedFiles } from '../../lib/file-removal.ts';
import { acceptBytes, bodyTooLarge } from '../../lib/raw-body.ts';
import { storageKeyFor, type FileStorage } from '../../lib/storage.ts';
import { createOrganization } from './service.ts';
import { requireUser } from '../../plugins/session.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { verifiedAddress } from '../identity/service.ts';
import {
  assertCan,
  can,
  effectiveRoles,
  loadOrgAccess,
  organizationDeleteGuards,
  permissionsFor,
  type OrgAccess,
  type OrganizationDeleteGuard,
  type OrganizationRow,
} from './authz.ts';
import {
  ORGANIZATION_PAGE,
  myOrganizations,
  organizationCollection,
  singleOrganizationQuery,
  uploadOrganizationParameter,
} from './collections.ts';
import { fileResource, organizationResource, type FileRow } from './resources.ts';
import {
  MAX_UPLOAD_BYTES,
  MIME_TYPES,
  UPLOAD_FIELDS,
  contentMatches,
  extensionAllowed,
  extensionOf,
  fileNameFromDisposition,
  type UploadField,
} from '../../lib/uploads.ts';
import { UUID } from '../../lib/ids.ts';

const M = en.organizations;
export const TITLE_MAX = 255;
export const DESCRIPTION_MAX = 5000;

const fileRef = z.object({ type: z.literal('file--file'), id: z.string().regex(UUID) });
const bodySchema = z.union([
  z.object({ value: z.string().nullable().optional(), format: z.string().optional() }).loose(),
  z.string(),
  z.null(),
]);
const organizationDocument = z.object({
  data: z.object({
    type: z.literal('group--organization'),
    id: z.string().optional(),
    attributes: z
      .object({ label: z.unknown().optional(), field_body: bodySchema.optional() })
      .strict()
      .optional(),
    relationships: z
      .object({
        field_image: z.object({ data: fileRef.nullable() }),
        field_documents: z.object({ data: z.array(fileRef).max(100) }),
      })
      .partial()
      .strict()
      .optional(),
  }),
});
type OrganizationDocument = z.infer<typeof organizationDocument>;
const ORGANIZATION_TYPE = 'group--organization';
/** What an organization write takes; anything else is a 400 unknown_field (jsonapi/errors.ts). */
const ORGANIZATION_FIELDS = {
  attributes: ['label', 'field_body'],
  relationships: ['field_image', 'field_documents'],
} as const;

/** The form rules of spec A 5 'Organization forms' (exact title messages are ours: 'Required'). */
function validateAttributes(
  doc: OrganizationDocument,
  creating: boolean,
): { title?: string; description?: string } {
  const attrs = doc.data.attributes ?? {};
  const errors: ErrorEntry[] = [];
  const out: { title?: string; description?: string } = {};
  if (creating || attrs.label !== undefined) {
    const label = typeof attrs.label === 'string' ? attrs.label.trim() : '';
    if (!label) errors.push({ title: M.titleRequired, pointer: '/data/attributes/label' });
    else if (label.length > TITLE_MAX)
      errors.push({ title: M.titleTooLong, pointer: '/data/attributes/label' });
    else out.title = label;
  }
  if (attrs.field_body !== undefined) {
    const body = attrs.field_body;
    const value = body === null ? '' : typeof body === 'string' ? body : (body.value ?? '');
    if (value.length > DESCRIPTION_MAX)
      errors.push({ title: M.descriptionTooLong, pointer: '/data/attributes/field_body' });
    else out.description = value.trim();
  }
  if (errors.length) throw new ApiErrors(422, errors);
  return out;
}

function parseDocument(body: unknown): OrganizationDocument {
  refuseUnknownFields(body, ORGANIZATION_TYPE, ORGANIZATION_FIELDS);
  const parsed = organizationDocument.safeParse(body, { reportInput: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HttpError(422, issue ? `${issue.path.join('.')}: ${issue.message}` : 'Invalid document', {
      pointer: `/${issue?.path.join('/') ?? ''}`,
      issues: parsed.error.issues.slice(0, 1),
    });
  }
  return parsed.data;
}

/**
 * Refuses deletion while an application of the organization is in PRODUCTION, looking at an
 * `applications` table when one exists (the applications module may also push its own guard).
 */
export function productionApplicationsGuard(supportEmail: string): OrganizationDeleteGuard {
  return async (trx, org) => {
    const table = await sql<{ n: number }>`select count(*)::int as n from information_schema.columns
      where table_schema = current_schema() and table_name = 'applications'
      and column_name in ('organization_id', 'status')`.execute(trx);
    if ((table.rows[0]?.n ?? 0) < 2) return null;
    const found = await sql<{ one: number }>`select 1 as one from applications
      where organization_id::text in (${String(org.id)}, ${org.uuid}) and status = 'PRODUCTION' limit 1`.execute(
      trx,
    );
    return found.rows.length ? M.deleteNotAllowed.replace('{{email}}', supportEmail) : null;
  };
}

export async function organizationRoutes(app: FastifyInstance, storage: FileStorage): Promise<void> {
  const db = app.db;
  const builtInGuard = productionApplicationsGuard(app.config.supportEmail);

  /** Creator uuids, images and (for members who may see them) documents of some organizations. */
  async function extrasFor(orgs: OrganizationRow[], accessOf: (org: OrganizationRow) => OrgAccess) {
    const creatorIds = [...new Set(orgs.map((o) => o.creator_id).filter((x): x is number => x !== null))];
    const creators = creatorIds.length
      ? await db.selectFrom('users').select(['id', 'uuid']).where('id', 'in', creatorIds).execute()
      : [];
    const visibleDocs = orgs.filter((o) => can(accessOf(o), 'view group')).map((o) => o.id);
    const imageIds = orgs.map((o) => o.image_file_id).filter((x): x is number => x !== null);
    const files =
      imageIds.length || visibleDocs.length
        ? await db
            .selectFrom('files')
            .selectAll()
            .where((eb) =>
              eb.or([
                ...(imageIds.length ? [eb('id', 'in', imageIds)] : []),
                ...(visibleDocs.length
                  ? [eb.and([eb('organization_id', 'in', visibleDocs), eb('kind', '=', 'document')])]
                  : []),
              ]),
            )
            .orderBy('id')
            .execute()
        : [];
    return (org: OrganizationRow) => ({
      creatorUuid: creators.find((c) => c.id === org.creator_id)?.uuid ?? null,
      image: files.find((f) => f.id === org.image_file_id) ?? null,
      documents: visibleDocs.includes(org.id)
        ? files.filter((f) => f.organization_id === org.id && f.kind === 'document')
        : undefined,
      access: accessOf(org),
    });
  }

  /** The included files for `include` (undefined when nothing is included; the document drops duplicates). */
  function included(
    base: string,
    include: readonly string[],
    items: { image: FileRow | null; documents?: FileRow[] }[],
  ): ResourceObject[] | undefined {
    if (!include.length) return undefined;
    const out: ResourceObject[] = [];
    for (const item of items) {
      if (include.includes('field_image') && item.image) out.push(fileResource(base, item.image));
      if (include.includes('field_documents'))
        out.push(...(item.documents ?? []).map((d) => fileResource(base, d)));
    }
    return out;
  }

  /** One organization; links.self is its own URL (also after POST and PATCH). */
  async function singleDocument(
    request: FastifyRequest,
    access: OrgAccess,
    query: Pick<JsonApiQuery, 'include' | 'fields'>,
  ): Promise<JsonApiDocument> {
    const extras = (await extrasFor([access.org], () => access))(access.org);
    const base = baseUrl(request);
    return resourceDocument({
      url: new URL(`${base}/jsonapi/group/organization/${access.org.uuid}`),
      data: organizationResource(base, access.org, extras),
      included: included(base, query.include, [extras]),
      fields: query.fields,
    });
  }
  const noIncludes = { include: [], fields: {} };

  /** The caller's organizations: active memberships and pending invitations (flagged in meta). */
  app.get('/jsonapi/group/organization', async (request, reply) => {
    const user = requireUser(request);
    const query = parseJsonApiQuery(request.query, ORGANIZATION_PAGE);
    const { rows, count } = await fetchCollection(
      db,
      myOrganizations(db, user.id, verifiedAddress(user)),
      organizationCollection,
      query,
    );
    const accessById = new Map<number, OrgAccess>();
    const orgs: OrganizationRow[] = rows.map((r) => {
      const org: OrganizationRow = {
        id: r.id,
        uuid: r.uuid,
        title: r.title,
        description: r.description,
        creator_id: r.creator_id,
        image_file_id: r.image_file_id,
        created_at: r.created_at,
        updated_at: r.updated_at,
      };
      const isCreator = org.creator_id === user.id;
      accessById.set(org.id, {
        user,
        org,
        isCreator,
        membership: {
          id: r.m_id,
          uuid: r.m_uuid,
          organization_id: org.id,
          // An invitation to the caller's address not linked yet is theirs all the same.
          user_id: r.m_user_id ?? user.id,
          email: r.m_email,
          status: r.m_status,
          roles: r.m_roles,
          invited_by: r.m_invited_by,
          resent_at: r.m_resent_at,
          created_at: r.m_created_at,
          changed_at: r.m_changed_at,
        },
        roles: effectiveRoles(r.m_roles, isCreator),
        permissions: r.m_status === 'active' ? permissionsFor(r.m_roles, isCreator) : new Set(),
      });
      return org;
    });
    const extrasOf = await extrasFor(orgs, (o) => accessById.get(o.id)!);
    const base = baseUrl(request);
    const all = orgs.map(extrasOf);
    return sendDocument(
      reply,
      collectionDocument({
        url: requestUrl(request),
        data: orgs.map((o, i) => organizationResource(base, o, all[i]!)),
        count,
        page: query.page,
        included: included(base, query.include, all),
        fields: query.fields,
      }),
    );
  });

  app.get<{ Params: { uuid: string } }>('/jsonapi/group/organization/:uuid', async (request, reply) => {
    const access = await loadOrgAccess(db, request.user, request.params.uuid);
    const query = singleOrganizationQuery(request.query);
    // A pending invitee sees the name and the invitation (meta.membership), to accept or ignore it.
    if (access.membership.status !== 'pending_invitation') assertCan(access, 'view group');
    return sendDocument(reply, await singleDocument(request, access, query));
  });

  app.post('/jsonapi/group/organization', async (request, reply) => {
    const user = requireUser(request);
    const doc = parseDocument(request.body);
    if (doc.data.relationships) throw badRequest(en.api.organizationFirst);
    const { title, description } = validateAttributes(doc, true);
    const org = await db.transaction().execute(async (trx) => {
      const created = await createOrganization(trx, {
        title: title!,
        description: description ?? '',
        creator: user,
      });
      await recordAudit(trx, actorOf(request), {
        action: 'organization.created',
        targetType: 'organization',
        targetId: created.uuid,
        targetLabel: created.title,
        organizationId: created.id,
        after: { title: created.title, description: created.description },
      });
      return created;
    });
    request.log.info({ organizationId: org.id }, 'organization created');
    const access = await loadOrgAccess(db, user, org);
    return sendDocument(reply, await singleDocument(request, access, noIncludes), 201);
  });

  app.patch<{ Params: { uuid: string } }>('/jsonapi/group/organization/:uuid', async (request, reply) => {
    const access = await loadOrgAccess(db, request.user, request.params.uuid);
    const doc = parseDocument(request.body);
    const attrs = doc.data.attributes ?? {};
    const rels = doc.data.relationships ?? {};
    if (attrs.label !== undefined || attrs.field_body !== undefined || rels.field_image !== undefined)
      assertCan(access, 'edit group');
    if (rels.field_documents !== undefined) assertCan(access, 'upload documents');
    if (!doc.data.attributes && !doc.data.relationships) assertCan(access, 'edit group');
    if (doc.data.id !== undefined && doc.data.id !== access.org.uuid)
      throw new HttpError(409, en.api.idMismatch);
    const { title, description } = validateAttributes(doc, false);
    const org = access.org;
    // Deleted `files` rows queue their stored files (lib/file-removal.ts), removed once this commits.
    const removedFiles = await db.transaction().execute(async (trx) => {
      const orgFiles = await trx
        .selectFrom('files')
        .selectAll()
        .where('organization_id', '=', org.id)
        .execute();
      const byUuid = new Map(orgFiles.map((f) => [f.uuid, f]));
      let imageId = org.image_file_id;
      if (rels.field_image) {
        const ref = rels.field_image.data;
        const file = ref ? byUuid.get(ref.id.toLowerCase()) : undefined;
        if (ref && (!file || file.kind !== 'image'))
          throw new ApiErrors(422, [
            {
              title: 'The image must be a file uploaded to field_image of this organization.',
              pointer: '/data/relationships/field_image',
            },
          ]);
        imageId = file?.id ?? null;
      }
      let removeIds: number[] = [];
      if (rels.field_documents) {
        const wanted = new Set(rels.field_documents.data.map((r) => r.id.toLowerCase()));
        for (const id of wanted) {
          const file = byUuid.get(id);
          if (!file || file.kind !== 'document')
            throw new ApiErrors(422, [
              {
                title: 'Documents must be files uploaded to field_documents of this organization.',
                pointer: '/data/relationships/field_documents',
              },
            ]);
        }
        // The list replaces the organization's documents: those left out are deleted.
        removeIds = orgFiles.filter((f) => f.kind === 'document' && !wanted.has(f.uuid)).map((f) => f.id);
      }
      if (imageId !== org.image_file_id && org.image_file_id !== null) removeIds.push(org.image_file_id);
      await trx
        .updateTable('organizations')
        .set({
          ...(title !== undefined ? { title } : {}),
          ...(description !== undefined ? { description } : {}),
          image_file_id: imageId,
          updated_at: new Date(),
        })
        .where('id', '=', org.id)
        .execute();
      if (removeIds.length) await trx.deleteFrom('files').where('id', 'in', removeIds).execute();
      return removeIds.length > 0;
    });
    if (removedFiles) await removeDeletedFiles(app);
    const fresh = await loadOrgAccess(db, access.user, org.uuid);
    return sendDocument(reply, await singleDocument(request, fresh, noIncludes));
  });

  // Raw file uploads: POST /jsonapi/group/organization/{field}?organization={uuid}.
  const uploadChecks = new WeakMap<FastifyRequest, { access: OrgAccess; field: UploadField }>();
  await app.register(async (scope) => {
    acceptBytes(scope, 'application/octet-stream', MAX_UPLOAD_BYTES);
    // Drupal's two forms: the organization in the query, or in the path before the field.
    for (const url of ['/jsonapi/group/organization/:field', '/jsonapi/group/organization/:uuid/:field'])
      scope.post<{ Params: { field: string; uuid?: string } }>(
        url,
        {
          bodyLimit: MAX_UPLOAD_BYTES,
          // Caller, organization and permission are checked before the body (up to 10 MiB) is read.
          onRequest: async (request) => {
            if (!request.user) throw unauthorized();
            const field = request.params.field;
            if (!Object.hasOwn(UPLOAD_FIELDS, field)) throw notFound();
            const orgParameter = uploadOrganizationParameter(request.query);
            const orgRef = request.params.uuid ?? orgParameter;
            if (!orgRef) throw badRequest(en.api.organizationParameter, 'organization');
            const access = await loadOrgAccess(db, request.user, orgRef);
            const kind = UPLOAD_FIELDS[field as UploadField].kind;
            assertCan(access, kind === 'image' ? 'edit group' : 'upload documents');
            uploadChecks.set(request, { access, field: field as UploadField });
          },
          errorHandler: bodyTooLarge(
            () =>
              new ApiErrors(413, [
                { title: M.uploadFailed, detail: M.fileTooLarge, code: 'payload_too_large' },
              ]),
          ),
        },
        async (request, reply) => {
          const { access, field } = uploadChecks.get(request)!;
          const user = access.user;
          const spec = UPLOAD_FIELDS[field];
          const data = request.body;
          if (!Buffer.isBuffer(data))
            throw new HttpError(
              415,
              'Send the file as the raw body with Content-Type: application/octet-stream.',
            );
          const fileName = fileNameFromDisposition(request.headers['content-disposition']);
          if (!fileName) throw new ApiErrors(422, [{ title: M.uploadFailed, detail: M.fileNameMissing }]);
          const ext = extensionOf(fileName);
          if (!extensionAllowed(field, ext))
            throw new ApiErrors(422, [{ title: M.uploadFailed, detail: M.extensionNotAllowed }]);
          if (data.length === 0) throw new ApiErrors(422, [{ title: M.uploadFailed, detail: M.fileEmpty }]);
          if (!contentMatches(ext, data))
            throw new ApiErrors(422, [{ title: M.uploadFailed, detail: M.contentMismatch }]);

          const uuid = randomUUID();
          const key = storageKeyFor(uuid);
          await storage.put(key, data);
          let replaced: boolean;
          let file: FileRow;
          try {
            ({ file, replaced } = await db.transaction().execute(async (trx) => {
              const inserted = await trx
                .insertInto('files')
                .values({
                  uuid,
                  organization_id: access.org.id,
                  filename: fileName,
                  mime: MIME_TYPES[ext] ?? 'application/octet-stream',
                  size: data.length,
                  storage_key: key,
                  kind: spec.kind,
                  uploaded_by: user.id,
                })
                .returningAll()
                .executeTakeFirstOrThrow();
              let replacedImage = false;
              if (spec.kind === 'image') {
                // The new image replaces the organization's image at once; the old file goes.
                const current = await trx
                  .selectFrom('organizations')
                  .select('image_file_id')
                  .where('id', '=', access.org.id)
                  .forUpdate()
                  .executeTakeFirstOrThrow();
                await trx
                  .updateTable('organizations')
                  .set({ image_file_id: inserted.id, updated_at: new Date() })
                  .where('id', '=', access.org.id)
                  .execute();
                if (current.image_file_id !== null) {
                  // Its stored file is queued by the deletion (lib/file-removal.ts).
                  await trx.deleteFrom('files').where('id', '=', current.image_file_id).execute();
                  replacedImage = true;
                }
              }
              return { file: inserted, replaced: replacedImage };
            }));
          } catch (err) {
            // No row, no file: the stored bytes go when the insert fails (a storage that fails
            // here too is logged with the key; the insert's error is the one answered).
            await storage
              .delete(key)
              .catch((e: unknown) => app.log.warn({ err: e, key }, 'could not remove a stored file'));
            throw err;
          }
          if (replaced) await removeDeletedFiles(app);
          request.log.info({ fileId: file.id, organizationId: access.org.id }, 'organization file uploaded');
          return sendDocument(reply, { data: fileResource(baseUrl(request), file) }, 201);
        },
      );
  });

  app.delete<{ Params: { uuid: string } }>(
    '/jsonapi/group/organization/:uuid/delete_custom',
    async (request, reply) => {
      const access = await loadOrgAccess(db, request.user, request.params.uuid);
      assertCan(access, 'delete group');
      // The organization's files go by the deletion below (and by the cascade whatever deletes an
      // organization): their stored files are queued (lib/file-removal.ts) and removed once it commits.
      await db.transaction().execute(async (trx: Transaction<Database>) => {
        const org = await trx
          .selectFrom('organizations')
          .selectAll()
          .where('id', '=', access.org.id)
          .forUpdate()
          .executeTakeFirst();
        if (!org) throw notFound();
        for (const guard of [builtInGuard, ...organizationDeleteGuards]) {
          const refusal = await guard(trx, org);
          if (refusal) throw new HttpError(409, refusal, { code: 'organization_in_use' });
        }
        await trx
          .updateTable('organizations')
          .set({ image_file_id: null })
          .where('id', '=', org.id)
          .execute();
        await trx.deleteFrom('files').where('organization_id', '=', org.id).execute();
        await trx.deleteFrom('memberships').where('organization_id', '=', org.id).execute();
        await trx.deleteFrom('organizations').where('id', '=', org.id).execute();
        await recordAudit(trx, actorOf(request), {
          action: 'organization.deleted',
          targetType: 'organization',
          targetId: org.uuid,
          targetLabel: org.title,
          organizationId: org.id,
          before: { title: org.title, description: org.description },
        });
      });
      await removeDeletedFiles(app);
      request.log.info({ organizationId: access.org.id }, 'organization deleted');
      return reply.status(204).send();
    },
  );

  /** Files: organization images are public; documents only for members who may view the group. */
  app.get<{ Params: { uuid: string; name: string } }>('/files/:uuid/:name', async (request, reply) => {
    if (!UUID.test(request.params.uuid)) throw notFound();
    const file = await db
      .selectFrom('files as f')
      .innerJoin('organizations as o', 'o.id', 'f.organization_id')
      .selectAll('f')
      .select(['o.image_file_id'])
      .where('f.uuid', '=', request.params.uuid.toLowerCase())
      .executeTakeFirst();
    if (!file || file.filename !== request.params.name) throw notFound();
    const publicImage = file.kind === 'image' && file.image_file_id === file.id;
    if (!publicImage) {
      if (!request.user) throw unauthorized();
      const access = await loadOrgAccess(db, request.user, file.organization_id);
      assertCan(access, 'view group');
    }
    const stream = await storage.get(file.storage_key);
    if (!stream) throw notFound();
    const disposition = file.kind === 'image' ? 'inline' : 'attachment';
    return reply
      .header('Content-Type', file.mime)
      .header('Content-Length', String(file.size))
      .header(
        'Content-Disposition',
        `${disposition}; filename="${file.filename.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      )
      .header('Cache-Control', publicImage ? 'public, max-age=300' : 'private, no-store')
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .send(stream);
  });
}
