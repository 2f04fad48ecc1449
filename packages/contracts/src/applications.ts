import { z } from 'zod';

/**
 * Rules of the application and go-live forms (spec A sections 3, 5 and 8), written once and used
 * by the web forms and the server routes alike.
 */
export const APPLICATION_MESSAGES = {
  required: 'Required',
  descriptionTooLong: 'Must be 1000 characters or less',
  grantTypeRequired: 'You must select at least one Grant Type',
  invalidEmail: 'Invalid email',
  cannotEdit: 'You cannot edit a production application.',
  cannotDelete: 'You cannot delete a production application.',
  cannotUnsubscribe: 'You cannot unsubscribe a production application.',
  noSubscription: 'You need an active subscription to use this app.',
  subscribeFailed: 'Something went wrong. Please try again',
  unsubscribeFailed: 'Something went wrong. Try again later',
  certificateFallback: 'An error has occured please try again later!',
  goLiveFailed: 'An error occurred: {{message}}',
  copySecret: 'Please copy your client secret and keep it safe!',
  goLiveBanner:
    'Your application is currently disabled. The provider will get in touch with you to complete the go-live process.',
} as const;

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

const uri = z.string().trim().pipe(z.url('Enter a valid URL'));

/** The application form as the web app holds it (spec A 3 'Application form'). */
export const applicationFormSchema = z
  .object({
    title: z.string().trim().min(1, APPLICATION_MESSAGES.required).max(255),
    description: z
      .string()
      .max(APPLICATION_DESCRIPTION_MAX, APPLICATION_MESSAGES.descriptionTooLong)
      .refine((v) => stripTags(v).length > 1, APPLICATION_MESSAGES.required),
    authorizationCodeAllowed: z.boolean(),
    clientCredentialsAllowed: z.boolean(),
    oAuthRedirectUri: z.array(uri).max(20),
    postLogoutRedirectUri: z.array(uri).max(20),
  })
  .refine((v) => v.authorizationCodeAllowed || v.clientCredentialsAllowed, {
    message: APPLICATION_MESSAGES.grantTypeRequired,
    path: ['authorizationCodeAllowed'],
  });
export type ApplicationForm = z.infer<typeof applicationFormSchema>;

/** The attributes the create and edit calls send (spec A 7). */
export const applicationAttributesSchema = z.object({
  title: z.string().trim().min(1, APPLICATION_MESSAGES.required).max(255),
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
  field_oauth_redirect_uri: z.array(uri).max(20).default([]),
  field_postlogout_redirect_uri: z.array(uri).max(20).default([]),
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
