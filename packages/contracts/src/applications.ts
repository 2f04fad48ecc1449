import { z } from 'zod';
import { applicationsMessages } from './messages/applications.ts';
import { isAllowedRedirectUri, nativeLoopbackConflict } from './redirect-uri.ts';
import type { ClientAuthForm, ClientAuthenticationView } from './client-auth.ts';

/**
 * Rules of the application and go-live forms (spec A sections 3, 5 and 8), written once and used
 * by the web forms and the server routes alike. The texts live in messages/applications.ts.
 */
export const APPLICATION_MESSAGES = applicationsMessages;

export const APPLICATION_DESCRIPTION_MAX = 1000;
export const GRANT_TYPE_VALUES = ['authorization_code', 'client_credentials'] as const;
export type GrantType = (typeof GRANT_TYPE_VALUES)[number];
export const APPLICATION_STATUSES = ['DEVELOPMENT', 'PRODUCTION'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
export const DEVELOPER_TYPES = ['Personal', 'Company'] as const;

/** Text of a rich-text value without its tags, for the 'more than 1 character' rule. */
export function stripTags(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .trim();
}

const url = z.url();
/** One message per URI: not a URL at all, or a URL no client may register (redirect-uri.ts). */
const uri = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    if (!url.safeParse(value).success)
      ctx.addIssue({ code: 'custom', message: APPLICATION_MESSAGES.invalidUrl });
    else if (!isAllowedRedirectUri(value))
      ctx.addIssue({ code: 'custom', message: APPLICATION_MESSAGES.redirectUriNotAllowed });
  });

/** A list of redirect URIs: each allowed, and together one kind of client (redirect-uri.ts). */
const uriList = z
  .array(uri)
  .max(20)
  .superRefine((uris, ctx) => {
    const at = nativeLoopbackConflict(uris);
    if (at >= 0)
      ctx.addIssue({ code: 'custom', message: APPLICATION_MESSAGES.redirectUriNativeLoopback, path: [at] });
  });

/** The application form as the web app holds it (spec A 3 'Application form'). */
export const applicationFormSchema = z
  .object({
    title: z
      .string()
      .trim()
      .min(1, APPLICATION_MESSAGES.required)
      .max(255, APPLICATION_MESSAGES.titleTooLong),
    description: z
      .string()
      .max(APPLICATION_DESCRIPTION_MAX, APPLICATION_MESSAGES.descriptionTooLong)
      .refine((v) => stripTags(v).length > 1, APPLICATION_MESSAGES.required),
    authorizationCodeAllowed: z.boolean(),
    clientCredentialsAllowed: z.boolean(),
    oAuthRedirectUri: uriList,
    postLogoutRedirectUri: uriList,
    /** Client authentication (issue 28, client-auth.ts): checked by the server. */
    clientAuth: z.custom<ClientAuthForm>().optional(),
  })
  .refine((v) => v.authorizationCodeAllowed || v.clientCredentialsAllowed, {
    message: APPLICATION_MESSAGES.grantTypeRequired,
    path: ['authorizationCodeAllowed'],
  });
export type ApplicationForm = z.infer<typeof applicationFormSchema>;

/** The attributes the create and edit calls send (spec A 7). */
export const applicationAttributesSchema = z.object({
  title: z.string().trim().min(1, APPLICATION_MESSAGES.required).max(255, APPLICATION_MESSAGES.titleTooLong),
  field_description: z
    .union([z.string(), z.object({ value: z.string(), format: z.string().optional() })])
    .transform((v) => (typeof v === 'string' ? v : v.value))
    .pipe(
      z
        .string()
        .max(APPLICATION_DESCRIPTION_MAX, APPLICATION_MESSAGES.descriptionTooLong)
        .refine((v) => stripTags(v).length > 1, APPLICATION_MESSAGES.required),
    ),
  field_allowed_grant_types: z
    .array(z.enum(GRANT_TYPE_VALUES))
    .min(1, APPLICATION_MESSAGES.grantTypeRequired)
    .transform((v) => [...new Set(v)]),
  field_oauth_redirect_uri: uriList.default([]),
  field_postlogout_redirect_uri: uriList.default([]),
});
export type ApplicationAttributes = z.infer<typeof applicationAttributesSchema>;

/** The go-live form (spec A 3 and 5): every field required, e-mail valid. */
export const goLiveFormSchema = z.object({
  developerType: z.enum(DEVELOPER_TYPES, { message: APPLICATION_MESSAGES.required }),
  firstName: z.string().trim().min(1, APPLICATION_MESSAGES.required).max(100),
  lastName: z.string().trim().min(1, APPLICATION_MESSAGES.required).max(100),
  companyName: z.string().trim().min(1, APPLICATION_MESSAGES.required).max(200),
  address: z.string().trim().min(1, APPLICATION_MESSAGES.required).max(500),
  email: z
    .string()
    .trim()
    .min(1, APPLICATION_MESSAGES.required)
    .pipe(z.email(APPLICATION_MESSAGES.invalidEmail)),
  siteUrl: z.string().trim().min(1, APPLICATION_MESSAGES.required).max(500),
  useCases: z.string().trim().min(1, APPLICATION_MESSAGES.required).max(5000),
});
export type GoLiveForm = z.infer<typeof goLiveFormSchema>;

/** Go-live form field names as sent in the go_live_form node (spec A 3). */
export const GO_LIVE_FIELDS = {
  developerType: 'field_developer_type',
  firstName: 'field_first_name',
  lastName: 'field_last_name',
  companyName: 'field_company_name',
  address: 'field_address',
  email: 'field_email',
  siteUrl: 'field_site_url_download_location',
  useCases: 'field_use_cases',
} as const satisfies Record<keyof GoLiveForm, string>;

/** POST /api/application with an application payload: create (spec A 7, the terminal's call). */
export const applicationPayloadSchema = z.object({
  title: z.string().trim().min(1, APPLICATION_MESSAGES.required).max(255, APPLICATION_MESSAGES.titleTooLong),
  organization: z.union([z.string(), z.number()]).transform(String),
  description: z
    .string()
    .max(APPLICATION_DESCRIPTION_MAX, APPLICATION_MESSAGES.descriptionTooLong)
    .refine((v) => stripTags(v).length > 1, APPLICATION_MESSAGES.required),
  allowedGrantTypes: z
    .array(z.enum(GRANT_TYPE_VALUES))
    .min(1, APPLICATION_MESSAGES.grantTypeRequired)
    .transform((v) => [...new Set(v)]),
  oAuthRedirectUri: uriList.default([]),
  postLogoutRedirectUri: uriList.default([]),
});
export type ApplicationPayload = z.infer<typeof applicationPayloadSchema>;

/** POST /api/application with type subscribe or unsubscribe (spec A 7, B 7). */
export const subscriptionRequestSchema = z.object({
  type: z.enum(['subscribe', 'unsubscribe']),
  application: z.union([z.string().min(1), z.number()]).transform(String),
  product: z.union([z.string().min(1), z.number()]).transform(String),
});

/** POST /secret/reset and /secret/delete (spec A 7). */
export const secretRequestSchema = z.object({
  application: z.union([z.string().min(1), z.number()]).transform(String),
  environment: z
    .enum(APPLICATION_STATUSES, { message: APPLICATION_MESSAGES.unknownEnvironment })
    .default('DEVELOPMENT'),
});

/** POST /admin-api/go-live/{id}/reject. */
export const goLiveRejectSchema = z.object({
  reason: z
    .string({ message: APPLICATION_MESSAGES.reasonRequired })
    .trim()
    .min(1, APPLICATION_MESSAGES.reasonRequired)
    .max(2000, APPLICATION_MESSAGES.reasonTooLong),
});

export const GO_LIVE_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type GoLiveStatus = (typeof GO_LIVE_STATUSES)[number];

/** A subscribed product as the application view lists it (spec A 3 'Subscription'). */
export interface Subscription {
  uuid: string;
  nid: number;
  title: string;
  version: string | null;
  deprecated: boolean;
  /** '/accounts-api-v1' */
  alias: string;
  psd2CertificateRequired: boolean;
  /** Space-separated scopes the product grants to DEVELOPMENT / PRODUCTION clients. */
  scope: string;
  scopeProduction: string;
  /** The product's API documentations, each with the product's scopes. */
  apiEndpoints: { uuid: string; title: string; alias: string; scope: string; scope_production: string }[];
}

/**
 * The application as the web app holds it (spec A 3 'Application'): the items of
 * GET /phpsdk/organization/apps, the answer of POST /api/application and `meta.application` of
 * the JSON:API resource.
 */
export interface Application {
  uuid: string;
  nid: number;
  title: string;
  /** Sanitized HTML as stored. */
  description: string;
  descriptionProcessed: string;
  created: string;
  changed: string;
  allowedGrantTypes: GrantType[];
  oauthRedirectUri: string[];
  postLogoutRedirectUri: string[];
  imageUrl: string | null;
  clientId: { development: string | null; production: string | null };
  /** The DEVELOPMENT secret; null without the permission or after /secret/delete. */
  clientSecret: string | null;
  clientSecrets: { development: string | null; production: string | null };
  applicationStatus: ApplicationStatus;
  goLive: {
    status: GoLiveStatus | null;
    requestId: string | null;
    reason: string | null;
    requestedAt: string | null;
    decidedAt: string | null;
  };
  subscriptionIds: string[];
  subscriptions: Subscription[];
  organizationId: string;
  organization: { uuid: string; id: number; title: string };
  /** What the caller may do with this application. */
  permissions: {
    update: boolean;
    delete: boolean;
    goLive: boolean;
    viewSecret: boolean;
    viewAnalytics: boolean;
  };
  /** How its OAuth clients authenticate (issue 28); absent before the clients exist. */
  clientAuthentication?: ClientAuthenticationView | undefined;
}

/** One row of GET /phpsdk/app-analytics/aggregates (spec A 3 'Analytics per endpoint'). */
export interface EndpointAggregate {
  endpoint: string;
  minExecutionTime: number;
  avgExecutionTime: number;
  maxExecutionTime: number;
  successCalls: number;
  failedCalls: number;
  totalCalls: number;
}

/** One row of GET /phpsdk/app-analytics/sumAggregates: per endpoint and day. */
export interface DailyEndpointAggregate extends EndpointAggregate {
  /** 'YYYY-MM-DD' (UTC). */
  referenceDate: string;
}

/** PSD certificate validation result (spec A 3). */
export interface CertificateValidation {
  isValid: boolean;
  message: string;
  certRequired: boolean;
}
