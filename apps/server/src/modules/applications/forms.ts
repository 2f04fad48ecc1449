import {
  applicationAttributesSchema,
  applicationPayloadSchema,
  stripTags,
  type GrantType,
} from '@portico/contracts/applications';
import { en } from '@portico/contracts/messages';
import { z } from 'zod';
import { refuseUnknownFields, ApiErrors, type ErrorEntry } from '../../jsonapi/errors.ts';
import { HttpError } from '../../lib/errors.ts';
import { CLIENT_AUTH_KEYS } from './client-auth-fields.ts';
import { sanitizeDescription } from './description.ts';
import type { ApplicationFields } from './service.ts';
import type { ApplicationRow } from './tables.ts';

/**
 * Request bodies of the application calls, checked with the shared rules of
 * @portico/contracts/applications; every problem is a 422 entry pointing at its field.
 */
const M = en.applications;

const ATTRIBUTE_KEYS = [
  'title',
  'field_description',
  'field_allowed_grant_types',
  'field_oauth_redirect_uri',
  'field_postlogout_redirect_uri',
] as const;
type AttributeKey = (typeof ATTRIBUTE_KEYS)[number];

const productRef = z.object({
  type: z.literal('node--api_product'),
  id: z.union([z.string().min(1), z.number().int()]).transform(String),
});

const applicationDocument = z.object({
  data: z.object({
    type: z.literal('node--application'),
    id: z.string().optional(),
    attributes: z.record(z.string(), z.unknown()).optional(),
    relationships: z
      .object({ field_application_subscriptions: z.object({ data: z.array(productRef).max(100) }) })
      .partial()
      .strict()
      .optional(),
  }),
});

export function issuesToErrors(issues: z.core.$ZodIssue[], prefix: string): ErrorEntry[] {
  return issues.map((i) => ({
    title: i.message,
    issue: i,
    pointer: `${prefix}/${i.path.map(String).join('/')}`.replace(/\/$/, ''),
  }));
}

/** Sanitizes and checks that something is left of the description ('Required' otherwise). */
function cleanDescription(raw: string, pointer: string): string {
  const clean = sanitizeDescription(raw);
  if (stripTags(clean).length <= 1) throw new ApiErrors(422, [{ title: M.required, pointer }]);
  return clean;
}

export interface ParsedApplicationDocument {
  id: string | undefined;
  /** The fields after the change (create: as sent; edit: the current values where not sent). */
  fields: ApplicationFields;
  /** Product refs (uuid or nid) when the relationship was sent. */
  productRefs: string[] | undefined;
}

/**
 * The create (`POST /phpsdk/organization/apps/create`) and edit (`PATCH …/edit_app_custom`)
 * document. On create every attribute is required; on edit the ones left out keep their value.
 */
export function parseApplicationDocument(body: unknown, current?: ApplicationRow): ParsedApplicationDocument {
  refuseUnknownFields(body, 'node--application', {
    // The client authentication attributes are read by client-auth-fields.ts (issue 28).
    attributes: [...ATTRIBUTE_KEYS, ...CLIENT_AUTH_KEYS],
    relationships: ['field_application_subscriptions'],
  });
  const doc = applicationDocument.safeParse(body, { reportInput: true });
  if (!doc.success) throw new ApiErrors(422, issuesToErrors(doc.error.issues, ''));
  const attrs = doc.data.data.attributes ?? {};
  const given = ATTRIBUTE_KEYS.filter((k) => attrs[k] !== undefined);
  const input: Partial<Record<AttributeKey, unknown>> = {};
  // On create a missing attribute is an empty one, so that the messages are the form's.
  if (!current) Object.assign(input, { title: '', field_description: '', field_allowed_grant_types: [] });
  for (const k of given) input[k] = attrs[k];
  const keys = current
    ? given
    : [...new Set<AttributeKey>([...given, 'title', 'field_description', 'field_allowed_grant_types'])];
  const schema = applicationAttributesSchema.pick(
    Object.fromEntries(keys.map((k) => [k, true])) as Record<AttributeKey, true>,
  );
  const parsed = schema.safeParse(input, { reportInput: true });
  if (!parsed.success) throw new ApiErrors(422, issuesToErrors(parsed.error.issues, '/data/attributes'));
  const v = parsed.data as Partial<z.infer<typeof applicationAttributesSchema>>;
  const fields: ApplicationFields = {
    title: v.title ?? current?.title ?? '',
    description:
      v.field_description !== undefined
        ? cleanDescription(v.field_description, '/data/attributes/field_description')
        : (current?.description ?? ''),
    grantTypes: v.field_allowed_grant_types ?? (current?.grant_types as GrantType[] | undefined) ?? [],
    redirectUris: v.field_oauth_redirect_uri ?? current?.redirect_uris ?? [],
    postLogoutRedirectUris: v.field_postlogout_redirect_uri ?? current?.post_logout_redirect_uris ?? [],
  };
  return {
    id: doc.data.data.id,
    fields: {
      ...fields,
      redirectUris: [...new Set(fields.redirectUris)],
      postLogoutRedirectUris: [...new Set(fields.postLogoutRedirectUris)],
    },
    productRefs: doc.data.data.relationships?.field_application_subscriptions?.data.map((r) => r.id),
  };
}

export const DOCUMENT_POINTERS = {
  grantTypes: '/data/attributes/field_allowed_grant_types',
  redirectUris: '/data/attributes/field_oauth_redirect_uri',
  postLogoutRedirectUris: '/data/attributes/field_postlogout_redirect_uri',
};

export const PAYLOAD_POINTERS = {
  grantTypes: '/allowedGrantTypes',
  redirectUris: '/oAuthRedirectUri',
  postLogoutRedirectUris: '/postLogoutRedirectUri',
};

/** `POST /api/application` with an application payload. */
export function parseApplicationPayload(body: Record<string, unknown>): {
  organization: string;
  fields: ApplicationFields;
} {
  const input: Record<string, unknown> = { title: '', description: '', allowedGrantTypes: [], ...body };
  if (input.organization === undefined || input.organization === '')
    throw new ApiErrors(422, [{ title: M.organizationRequired, pointer: '/organization' }]);
  const parsed = applicationPayloadSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) throw new ApiErrors(422, issuesToErrors(parsed.error.issues, ''));
  const v = parsed.data;
  return {
    organization: v.organization,
    fields: {
      title: v.title,
      description: cleanDescription(v.description, '/description'),
      grantTypes: v.allowedGrantTypes,
      redirectUris: [...new Set(v.oAuthRedirectUri)],
      postLogoutRedirectUris: [...new Set(v.postLogoutRedirectUri)],
    },
  };
}

/** A JSON object body, or a 400. */
export function objectBody(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new HttpError(400, en.api.jsonObjectRequired);
  return body as Record<string, unknown>;
}
