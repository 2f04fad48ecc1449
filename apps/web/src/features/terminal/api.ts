import type { ApplicationForm } from '@portico/contracts/applications';
import { apiRequest } from '../../lib/api-client';
import type { Choice, TerminalContext } from './registry';

/**
 * The portal calls the terminal makes (spec B 7 'Application list and create calls from the
 * terminal'): the very calls of the application screens (apps/server/src/modules/applications/
 * README.md), with the same payloads and so the same server rules. Kept here rather than imported
 * from the applications, organizations and products features: features stay apart (eslint).
 */

export interface TerminalApp {
  uuid: string;
  title: string;
  organization: { uuid: string; title: string } | null;
}

/** Every application the signed-in user may see, across organizations (GET /phpsdk/organization/apps). */
export function myApplications(ctx: TerminalContext): Promise<TerminalApp[]> {
  return ctx.lookup('apps', async () => {
    const res = await apiRequest<{ data: TerminalApp[] }>('/phpsdk/organization/apps', {
      format: 'json',
      query: { 'page[limit]': 50 },
    });
    return res.data;
  });
}

export async function applicationChoices(ctx: TerminalContext): Promise<Choice[]> {
  return (await myApplications(ctx)).map((a) => ({ label: a.title, value: a.uuid }));
}

interface OrganizationResource {
  id: string;
  attributes: { label: string };
  meta?: { membership?: { status?: string } };
}

/** The organizations the user is an active member of (GET /jsonapi/group/organization, first 50). */
export async function organizationChoices(ctx: TerminalContext): Promise<Choice[]> {
  const doc = await ctx.lookup('organizations', () =>
    apiRequest<{ data: OrganizationResource[] }>('/jsonapi/group/organization', {
      query: { sort: 'label', 'page[limit]': 50 },
    }),
  );
  return doc.data
    .filter((o) => (o.meta?.membership?.status ?? 'active') === 'active')
    .map((o) => ({ label: o.attributes.label, value: o.id }));
}

/** The API products that are not deprecated (GET /jsonapi/node/api_product, first 50). */
export async function productChoices(ctx: TerminalContext): Promise<Choice[]> {
  const doc = await ctx.lookup('products', () =>
    apiRequest<{ data: { id: string; attributes: { title: string; field_deprecated?: boolean | null } }[] }>(
      '/jsonapi/node/api_product',
      { query: { 'page[limit]': 50 } },
    ),
  );
  return doc.data
    .filter((p) => !p.attributes.field_deprecated)
    .map((p) => ({ label: p.attributes.title, value: p.id }));
}

/** POST /phpsdk/organization/apps/create, as the application form sends it. */
export async function createApp(organization: string, form: ApplicationForm): Promise<{ uuid: string }> {
  const doc = await apiRequest<{ data: { id: string } }>('/phpsdk/organization/apps/create', {
    method: 'POST',
    query: { ORGANIZATION: organization, _format: 'json' },
    body: {
      data: {
        type: 'node--application',
        attributes: {
          title: form.title.trim(),
          field_description: form.description,
          field_allowed_grant_types: [
            ...(form.authorizationCodeAllowed ? ['authorization_code'] : []),
            ...(form.clientCredentialsAllowed ? ['client_credentials'] : []),
          ],
          field_oauth_redirect_uri: form.oAuthRedirectUri,
          field_postlogout_redirect_uri: form.postLogoutRedirectUri,
        },
      },
    },
  });
  return { uuid: doc.data.id };
}

/** POST /api/application { type: 'subscribe', application, product } (spec B 7; 200 is success). */
export async function subscribeApp(application: string, product: string): Promise<void> {
  await apiRequest('/api/application', {
    method: 'POST',
    format: 'json',
    body: { type: 'subscribe', application, product },
  });
}
