import type { Application, ApplicationForm } from '@portico/contracts/applications';
import { clientAuthAttributes } from '@portico/contracts/client-auth';
import { readerLanguage } from '../components/content/translation';
import { apiRequest } from './api-client';

/**
 * The application calls that several features make (the application screens, the terminal, the
 * product page's subscribe, the try-out console's token panel), one place each, as the
 * applications module's README documents them. Features may not import each other (eslint), so
 * they live here; nothing of the first page imports this module.
 */

/**
 * Every application the signed-in user may see, across organizations (first 50), their products'
 * titles in the page's language (decision 063).
 */
export async function fetchMyApplications(): Promise<Application[]> {
  const res = await apiRequest<{ data: Application[] }>('/phpsdk/organization/apps', {
    format: 'json',
    query: { 'page[limit]': 50, ...readerLanguage() },
  });
  return res.data;
}

/** The application form as the create and edit calls carry it (spec A 7). */
export function applicationAttributes(form: ApplicationForm) {
  return {
    title: form.title.trim(),
    field_description: form.description,
    field_allowed_grant_types: [
      ...(form.authorizationCodeAllowed ? ['authorization_code'] : []),
      ...(form.clientCredentialsAllowed ? ['client_credentials'] : []),
    ],
    field_oauth_redirect_uri: form.oAuthRedirectUri,
    field_postlogout_redirect_uri: form.postLogoutRedirectUri,
    // Client authentication (issue 28): sent when the form holds it.
    ...(form.clientAuth ? clientAuthAttributes(form.clientAuth) : {}),
  };
}

/** POST /phpsdk/organization/apps/create: answers the new application. */
export async function createApplication(organization: string, form: ApplicationForm): Promise<Application> {
  const doc = await apiRequest<{ data: { id: string; meta: { application: Application } } }>(
    '/phpsdk/organization/apps/create',
    {
      method: 'POST',
      query: { ORGANIZATION: organization, _format: 'json' },
      body: { data: { type: 'node--application', attributes: applicationAttributes(form) } },
    },
  );
  return doc.data.meta.application;
}

/** POST /api/application with type subscribe or unsubscribe (spec B 7): answers the updated application. */
export async function changeSubscription(
  type: 'subscribe' | 'unsubscribe',
  application: string,
  product: string,
): Promise<Application> {
  const res = await apiRequest<{ data: Application }>('/api/application', {
    method: 'POST',
    format: 'json',
    // The answer replaces the application page's data: its product titles in the page's language.
    query: readerLanguage(),
    body: { type, application, product },
  });
  return res.data;
}
