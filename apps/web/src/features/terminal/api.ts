import { apiRequest } from '../../lib/api-client';
import { readerLanguage } from '../../components/content/translation';
import { fetchMyApplications } from '../../lib/applications-api';
import type { Choice, TerminalContext } from './registry';

/**
 * The portal calls the terminal makes (spec B 7 'Application list and create calls from the
 * terminal'): the very calls of the application screens (apps/server/src/modules/applications/
 * README.md), with the same payloads and so the same server rules. The application calls come from
 * lib/applications-api.ts, which the application screens use too; the choice lists below are the
 * terminal's own (features stay apart, eslint).
 */

export { changeSubscription, createApplication } from '../../lib/applications-api';

export interface TerminalApp {
  uuid: string;
  title: string;
  organization: { uuid: string; title: string } | null;
}

/** Every application the signed-in user may see, across organizations (GET /phpsdk/organization/apps). */
export function myApplications(ctx: TerminalContext): Promise<TerminalApp[]> {
  return ctx.lookup('apps', fetchMyApplications);
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
      // The titles in the page's language, as the product pages show them.
      { query: { 'page[limit]': 50, ...readerLanguage() } },
    ),
  );
  return doc.data
    .filter((p) => !p.attributes.field_deprecated)
    .map((p) => ({ label: p.attributes.title, value: p.id }));
}
