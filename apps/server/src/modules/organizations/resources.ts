import type { Selectable } from 'kysely';
import type { FilesTable, MembershipsTable, OrganizationRolesTable } from '../../db/schema.ts';
import type { ResourceObject } from '../../jsonapi/document.ts';
import { escapeHtml } from '../../lib/html.ts';
import type { OrgAccess, OrganizationRow } from './authz.ts';

/**
 * JSON:API resource objects of this module, one small function per resource type; the documents
 * around them come from the shared layer (src/jsonapi/document.ts).
 */
export type FileRow = Selectable<FilesTable>;
export type RoleRow = Selectable<OrganizationRolesTable>;

const iso = (value: Date | string) => new Date(value).toISOString();

/** The public address of a stored file: /files/{uuid}/{filename}. */
export function fileUrl(base: string, file: FileRow): string {
  return `${base}/files/${file.uuid}/${encodeURIComponent(file.filename)}`;
}

/** `file--file`: Drupal's attribute names plus the spec's (fid, uuid, url, fileName, fileSize). */
export function fileResource(base: string, file: FileRow): ResourceObject {
  const url = fileUrl(base, file);
  return {
    type: 'file--file',
    id: file.uuid,
    attributes: {
      drupal_internal__fid: file.id,
      fid: file.id,
      uuid: file.uuid,
      filename: file.filename,
      fileName: file.filename,
      filemime: file.mime,
      filesize: file.size,
      fileSize: file.size,
      kind: file.kind,
      uri: { value: `private://organizations/${file.uuid}`, url },
      url,
      created: iso(file.created_at),
    },
    links: { self: { href: url } },
  };
}

export interface OrganizationExtras {
  creatorUuid: string | null;
  image: FileRow | null;
  /** Undefined when the caller may not see the documents (a pending invitee). */
  documents: FileRow[] | undefined;
  access: OrgAccess;
}

/** `group--organization` with the caller's membership and permissions in meta. */
export function organizationResource(
  base: string,
  org: OrganizationRow,
  extras: OrganizationExtras,
): ResourceObject {
  const self = `${base}/jsonapi/group/organization/${org.uuid}`;
  const { access } = extras;
  return {
    type: 'group--organization',
    id: org.uuid,
    attributes: {
      drupal_internal__id: org.id,
      label: org.title,
      field_body: {
        value: org.description,
        format: 'plain_text',
        processed: org.description ? `<p>${escapeHtml(org.description).replace(/\r?\n/g, '<br>\n')}</p>` : '',
      },
      created: iso(org.created_at),
      changed: iso(org.updated_at),
    },
    relationships: {
      uid: { data: extras.creatorUuid ? { type: 'user--user', id: extras.creatorUuid } : null },
      field_image: {
        data: extras.image
          ? { type: 'file--file', id: extras.image.uuid, meta: { alt: org.title, title: org.title } }
          : null,
      },
      field_documents: {
        data: (extras.documents ?? []).map((d) => ({ type: 'file--file', id: d.uuid })),
      },
    },
    links: { self: { href: self } },
    meta: {
      membership: {
        id: access.membership.uuid,
        status: access.membership.status,
        roles: access.roles,
      },
      isCreator: access.isCreator,
      permissions: [...access.permissions].sort(),
    },
  };
}

export interface MemberExtras {
  user: { uuid: string; name: string } | null;
  creatorId: number | null;
  orgUuid: string;
  roleUuids: Map<string, string>;
}

/** `group_content--organization-group_membership` with the spec's member fields as attributes. */
export function membershipResource(
  base: string,
  m: Selectable<MembershipsTable>,
  { user, creatorId, orgUuid, roleUuids }: MemberExtras,
): ResourceObject {
  const isCreator = creatorId !== null && m.user_id === creatorId;
  const roles =
    isCreator && !m.roles.includes('organization-admin') ? [...m.roles, 'organization-admin'] : m.roles;
  return {
    type: 'group_content--organization-group_membership',
    id: m.uuid,
    attributes: {
      drupal_internal__id: m.id,
      id: m.id,
      uuid: user?.uuid ?? null,
      membershipUuid: m.uuid,
      userName: user?.name ?? m.email,
      email: m.email,
      status: m.status,
      field_status: m.status,
      roles,
      isCreator,
      created: iso(m.created_at),
      changed: iso(m.changed_at),
      resentInvitation: m.resent_at !== null,
      resent: m.resent_at === null ? null : iso(m.resent_at),
    },
    relationships: {
      gid: { data: { type: 'group--organization', id: orgUuid } },
      entity_id: { data: user ? { type: 'user--user', id: user.uuid } : null },
      group_roles: {
        data: roles.map((r) => ({
          type: 'group_role--group_role',
          id: roleUuids.get(r) ?? r,
          meta: { drupal_internal__target_id: r },
        })),
      },
    },
    links: { self: { href: `${base}/jsonapi/group_content/organization-group_membership/${m.uuid}` } },
  };
}

/** `group_role--group_role`. */
export function roleResource(base: string, role: RoleRow): ResourceObject {
  return {
    type: 'group_role--group_role',
    id: role.uuid,
    attributes: {
      drupal_internal__id: role.id,
      id: role.id,
      uuid: role.uuid,
      label: role.label,
      name: role.label,
      description: role.description,
      permissions: role.permissions,
      weight: role.weight,
    },
    links: { self: { href: `${base}/jsonapi/group_role/group_role/${role.uuid}` } },
  };
}
