import type { OrganizationRoleId } from '@portico/contracts/organizations';
import { apiRequest } from '../../lib/api-client';

/**
 * The organizations calls of spec A 7 as the server implements them
 * (apps/server/src/modules/organizations/README.md): resource shapes and one function per call.
 * Pages use these through TanStack Query; query keys live here so that invalidation is consistent.
 */

/** The permissions the web app reads from `meta.permissions` (names from the server README). */
export const PERMISSIONS = {
  editGroup: 'edit group',
  deleteGroup: 'delete group',
  administerMembers: 'administer members',
  editMemberRoles: 'edit member roles',
  uploadDocuments: 'upload documents',
  viewMembers: 'view members',
  createApplication: ['create group_node:application content', 'create group_node:application entity'],
} as const;

export interface Relationship<T = { type: string; id: string }> {
  data: T;
}

export interface OrganizationResource {
  type: 'group--organization';
  id: string;
  attributes: {
    drupal_internal__id: number;
    label: string;
    field_body: { value: string; format: string; processed: string };
    created: string;
    changed: string;
  };
  relationships: {
    uid: Relationship<{ type: string; id: string } | null>;
    field_image: Relationship<{ type: string; id: string; meta?: { alt?: string } } | null>;
    field_documents: Relationship<{ type: string; id: string }[]>;
  };
  meta: {
    membership: { id: string; status: MembershipStatus; roles: string[] };
    isCreator: boolean;
    permissions: string[];
  };
}

export interface FileResource {
  type: 'file--file';
  id: string;
  attributes: {
    fid: number;
    uuid: string;
    fileName: string;
    fileSize: number;
    url: string;
    filemime: string;
    kind: 'image' | 'document';
    created: string;
  };
}

export type MembershipStatus = 'active' | 'pending_invitation' | 'blocked';

export interface MemberResource {
  type: 'group_content--organization-group_membership';
  id: string;
  attributes: {
    id: number;
    uuid: string | null;
    membershipUuid: string;
    userName: string;
    email: string;
    status: MembershipStatus;
    roles: string[];
    isCreator: boolean;
    created: string;
    changed: string;
    resentInvitation: boolean;
  };
}

export interface RoleResource {
  type: 'group_role--group_role';
  id: string;
  attributes: { id: string; uuid: string; label: string; description: string; weight: number };
}

export interface OutboxMessage {
  type: 'outbox--message';
  id: string;
  attributes: {
    id: number;
    to: string;
    subject: string;
    text: string;
    html: string | null;
    status: 'stored' | 'sent' | 'failed';
    error: string | null;
    created: string;
  };
}

interface Links {
  self?: { href: string };
  next?: { href: string };
  prev?: { href: string };
}

export interface ListDocument<T> {
  data: T[];
  included?: FileResource[];
  meta?: { count?: number };
  links?: Links;
}

/** An organization with its included image and documents resolved. */
export interface Organization {
  resource: OrganizationResource;
  image: FileResource | null;
  documents: FileResource[];
}

export const organizationKeys = {
  all: ['organizations'] as const,
  list: (sort: string) => ['organizations', 'list', sort] as const,
  one: (id: string) => ['organizations', 'one', id] as const,
  members: (id: string) => ['organizations', 'members', id] as const,
  roles: ['organizations', 'roles'] as const,
  applications: (id: string) => ['organizations', 'applications', id] as const,
};

const INCLUDE = 'field_image,field_documents';
/** Following links.next stops here: nobody belongs to more than this many pages of anything. */
const MAX_PAGES = 50;

/** Every page of a JSON:API list, following links.next (spec A 7). */
export async function fetchAllPages<T>(
  path: string,
  query: Record<string, string>,
): Promise<{ data: T[]; included: FileResource[] }> {
  const data: T[] = [];
  const included: FileResource[] = [];
  let next: string | undefined = path;
  let first = true;
  for (let page = 0; next && page < MAX_PAGES; page += 1) {
    const doc: ListDocument<T> = await apiRequest<ListDocument<T>>(next, first ? { query } : {});
    first = false;
    data.push(...doc.data);
    included.push(...(doc.included ?? []));
    next = doc.links?.next?.href;
  }
  return { data, included };
}

function resolve(resource: OrganizationResource, included: FileResource[]): Organization {
  const byId = (id: string) => included.find((f) => f.id === id) ?? null;
  const imageRef = resource.relationships.field_image.data;
  return {
    resource,
    image: imageRef ? byId(imageRef.id) : null,
    documents: resource.relationships.field_documents.data
      .map((ref) => byId(ref.id))
      .filter((f): f is FileResource => f !== null),
  };
}

export type OrganizationSort = 'label' | '-label' | 'created' | '-created';

export async function listOrganizations(sort: OrganizationSort): Promise<Organization[]> {
  const { data, included } = await fetchAllPages<OrganizationResource>('/jsonapi/group/organization', {
    include: 'field_image',
    sort,
  });
  return data.map((r) => resolve(r, included));
}

export async function getOrganization(id: string): Promise<Organization> {
  const doc = await apiRequest<{ data: OrganizationResource; included?: FileResource[] }>(
    `/jsonapi/group/organization/${encodeURIComponent(id)}`,
    { query: { include: INCLUDE } },
  );
  return resolve(doc.data, doc.included ?? []);
}

export async function createOrganization(title: string, description: string): Promise<OrganizationResource> {
  const doc = await apiRequest<{ data: OrganizationResource }>('/jsonapi/group/organization', {
    method: 'POST',
    body: {
      data: {
        type: 'group--organization',
        attributes: { label: title, field_body: { value: description, format: 'plain_text' } },
      },
    },
  });
  return doc.data;
}

export interface OrganizationPatch {
  title?: string;
  description?: string;
  /** null removes the image. */
  imageId?: string | null;
  /** The documents to keep (the list replaces the organization's documents). */
  documentIds?: string[];
}

export async function updateOrganization(
  id: string,
  patch: OrganizationPatch,
): Promise<OrganizationResource> {
  const attributes: Record<string, unknown> = {};
  if (patch.title !== undefined) attributes.label = patch.title;
  if (patch.description !== undefined)
    attributes.field_body = { value: patch.description, format: 'plain_text' };
  const relationships: Record<string, unknown> = {};
  if (patch.imageId !== undefined)
    relationships.field_image = { data: patch.imageId ? { type: 'file--file', id: patch.imageId } : null };
  if (patch.documentIds !== undefined)
    relationships.field_documents = { data: patch.documentIds.map((d) => ({ type: 'file--file', id: d })) };
  const doc = await apiRequest<{ data: OrganizationResource }>(
    `/jsonapi/group/organization/${encodeURIComponent(id)}`,
    {
      method: 'PATCH',
      body: {
        data: {
          type: 'group--organization',
          id,
          ...(Object.keys(attributes).length ? { attributes } : {}),
          ...(Object.keys(relationships).length ? { relationships } : {}),
        },
      },
    },
  );
  return doc.data;
}

export type UploadField = 'field_image' | 'field_documents';

/**
 * `file; filename="ascii"; filename*=UTF-8''encoded`: headers carry only Latin-1, so the real name
 * travels percent-encoded and the plain form is a safe fallback.
 */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `file; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** Raw-file upload (spec A 7: POST /jsonapi/group/organization/{type}); the file joins the organization at once. */
export async function uploadFile(
  organizationId: string,
  field: UploadField,
  file: File,
): Promise<FileResource> {
  const doc = await apiRequest<{ data: FileResource }>(`/jsonapi/group/organization/${field}`, {
    method: 'POST',
    query: { organization: organizationId },
    rawBody: file,
    headers: {
      'Content-Type': 'application/octet-stream',
      'Content-Disposition': contentDisposition(file.name),
    },
  });
  return doc.data;
}

export async function deleteOrganization(id: string): Promise<void> {
  await apiRequest(`/jsonapi/group/organization/${encodeURIComponent(id)}/delete_custom`, {
    method: 'DELETE',
  });
}

export async function listMembers(organizationId: string): Promise<MemberResource[]> {
  const { data } = await fetchAllPages<MemberResource>(
    '/jsonapi/group_content/organization-group_membership',
    {
      'filter[gid]': organizationId,
    },
  );
  return data;
}

export async function listRoles(): Promise<RoleResource[]> {
  const doc = await apiRequest<{ data: RoleResource[] }>('/jsonapi/group_role/group_role');
  return [...doc.data].sort((a, b) => a.attributes.weight - b.attributes.weight);
}

function membershipPath(membershipId: string): string {
  return `/jsonapi/group_content/organization-group_membership/${encodeURIComponent(membershipId)}`;
}

export async function acceptInvitation(membershipId: string): Promise<void> {
  await apiRequest(membershipPath(membershipId), {
    method: 'PATCH',
    body: {
      data: {
        type: 'group_content--organization-group_membership',
        id: membershipId,
        attributes: { field_status: 'active' },
      },
    },
  });
}

export async function setMemberRoles(
  membershipId: string,
  roles: OrganizationRoleId[],
): Promise<MemberResource> {
  const doc = await apiRequest<{ data: MemberResource }>(membershipPath(membershipId), {
    method: 'PATCH',
    body: {
      data: {
        type: 'group_content--organization-group_membership',
        id: membershipId,
        relationships: {
          group_roles: { data: roles.map((r) => ({ type: 'group_role--group_role', id: r })) },
        },
      },
    },
  });
  return doc.data;
}

/** Removes a member, cancels an invitation, or (the invitee) ignores it. */
export async function deleteMembership(membershipId: string): Promise<void> {
  await apiRequest(membershipPath(membershipId), { method: 'DELETE' });
}

export async function inviteMember(
  organizationId: string,
  email: string,
  roles: OrganizationRoleId[],
): Promise<MemberResource> {
  const doc = await apiRequest<{ data: MemberResource }>('/phpsdk/organization/invite', {
    method: 'POST',
    format: 'json',
    body: { group_roles: roles, gid: organizationId, email },
  });
  return doc.data;
}

export async function resendInvitation(
  organizationId: string,
  membershipId: string,
): Promise<string | undefined> {
  const doc = await apiRequest<{ meta?: { message?: string } }>('/phpsdk/organization/invite-resend', {
    method: 'POST',
    format: 'json',
    query: { _format: 'json' },
    body: { gid: organizationId, membershipId },
  });
  return doc.meta?.message;
}

export async function listOutbox(page: number, limit: number): Promise<ListDocument<OutboxMessage>> {
  return apiRequest<ListDocument<OutboxMessage>>('/admin-api/outbox', {
    query: { 'page[limit]': limit, 'page[offset]': page * limit },
  });
}

export async function getOutboxMessage(id: string): Promise<OutboxMessage> {
  const doc = await apiRequest<{ data: OutboxMessage }>(`/admin-api/outbox/${encodeURIComponent(id)}`);
  return doc.data;
}

export function hasPermission(org: OrganizationResource, permission: string | readonly string[]): boolean {
  const wanted = typeof permission === 'string' ? [permission] : permission;
  return wanted.some((p) => org.meta.permissions.includes(p));
}
