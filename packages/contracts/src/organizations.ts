import { z } from 'zod';
import { organizationsMessages as M } from './messages/organizations.ts';

/**
 * Organization forms and upload rules (spec A 5, 9), shared by the web forms. The server applies the
 * same limits (modules/organizations: TITLE_MAX, DESCRIPTION_MAX; lib/uploads.ts) and answers with the
 * same messages, so a value the form accepts is one the server accepts.
 */
export const ORGANIZATION_TITLE_MAX = 255;
export const ORGANIZATION_DESCRIPTION_MAX = 5000;
export const INVITE_EMAIL_MAX = 254;

/** The four organization roles, looked up by internal id (spec A 3), in the order the forms list them. */
export const ORGANIZATION_ROLE_IDS = [
  'organization-admin',
  'organization-developer',
  'organization-financial',
  'organization-le',
] as const;
export type OrganizationRoleId = (typeof ORGANIZATION_ROLE_IDS)[number];
export const OWNER_ROLE_ID: OrganizationRoleId = 'organization-admin';

/** Spec A 5 and 9: the extensions a document may have. */
export const DOCUMENT_EXTENSIONS = [
  'txt',
  'pdf',
  'doc',
  'docx',
  'crt',
  'pem',
  'cer',
  'der',
  'p7b',
  'p7c',
  'p12',
  'pfx',
] as const;
/** The organization image (ours: the spec names no image types). */
export const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'webp'] as const;
/** The server refuses larger uploads with 413. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** The lower-case extension of a file name, '' without one. */
export function fileExtension(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
}

export function extensionAllowed(fileName: string, allowed: readonly string[]): boolean {
  return allowed.includes(fileExtension(fileName));
}

/** The `accept` attribute of a file input for some extensions. */
export function acceptAttribute(allowed: readonly string[]): string {
  return allowed.map((e) => `.${e}`).join(',');
}

/** Create and edit organization (spec A 5 'Organization forms'). */
export const organizationFormSchema = z.object({
  title: z.string().trim().min(1, M.titleRequired).max(ORGANIZATION_TITLE_MAX, M.titleTooLong),
  description: z.string().max(ORGANIZATION_DESCRIPTION_MAX, M.descriptionTooLong),
});
export type OrganizationForm = z.infer<typeof organizationFormSchema>;

/** One member row of the invite form. */
export const inviteMemberSchema = z.object({
  email: z.string().trim().pipe(z.email(M.invalidEmail).max(INVITE_EMAIL_MAX, M.invalidEmail)),
  roles: z.array(z.enum(ORGANIZATION_ROLE_IDS)).min(1, M.rolesRequired),
});
export type InviteMember = z.infer<typeof inviteMemberSchema>;

/** Editing a member's roles: at least one. */
export const memberRolesSchema = z.array(z.enum(ORGANIZATION_ROLE_IDS)).min(1, M.roleRequired);
