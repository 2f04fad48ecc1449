import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { Application } from '@portico/contracts/applications';
import { en } from '@portico/contracts/messages';
import { uniqueEmail } from './session.ts';

/**
 * API fixtures for the application flows: the page's own request context (it shares the session
 * cookie with the page) with the session's CSRF token on writes.
 */

/** Signs a fresh user up on the identity provider through SIGN UP, as a visitor would. */
export async function signUp(page: Page, firstName: string, lastName: string): Promise<string> {
  const email = uniqueEmail(firstName.toLowerCase());
  await page.goto('/');
  await page.getByRole('link', { name: en.user.signUp }).click();
  await page.waitForURL(/\/idp\/interaction\//);
  await page.getByLabel(en.identity.firstNameLabel).fill(firstName);
  await page.getByLabel(en.identity.lastNameLabel).fill(lastName);
  await page.getByLabel(en.identity.emailLabel).fill(email);
  await page.getByLabel(en.identity.passwordLabel).fill('Secret#Passw0rd');
  await page.getByRole('button', { name: en.identity.createAccountButton }).click();
  await expect(page.getByText(`Welcome ${firstName} ${lastName}`)).toBeVisible();
  return email;
}

async function csrf(request: APIRequestContext): Promise<string> {
  const res = await request.get('/session/token');
  expect(res.ok()).toBe(true);
  return res.text();
}

export async function write<T>(
  request: APIRequestContext,
  method: 'post' | 'patch' | 'put',
  url: string,
  data: unknown,
  contentType = 'application/vnd.api+json',
): Promise<T> {
  const res = await request[method](url, {
    headers: { 'X-CSRF-Token': await csrf(request), 'Content-Type': contentType },
    data: JSON.stringify(data),
  });
  expect(res.ok(), `${method.toUpperCase()} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

/** POST /jsonapi/group/organization: the signed-in user becomes its owner. Returns its uuid. */
export async function createOrganization(page: Page, label: string): Promise<string> {
  const doc = await write<{ data: { id: string } }>(page.request, 'post', '/jsonapi/group/organization', {
    data: {
      type: 'group--organization',
      attributes: { label, field_body: { value: `${label} builds apps.`, format: 'plain_text' } },
    },
  });
  return doc.data.id;
}

/**
 * POST /phpsdk/organization/apps/create: client credentials only, unless `grants` says otherwise
 * (the authorization_code grant with its redirect URIs).
 */
export async function createApplication(
  page: Page,
  organization: string,
  title: string,
  grants: { grantTypes: string[]; redirectUris: string[] } = {
    grantTypes: ['client_credentials'],
    redirectUris: [],
  },
): Promise<Application> {
  const doc = await write<{ data: { meta: { application: Application } } }>(
    page.request,
    'post',
    `/phpsdk/organization/apps/create?ORGANIZATION=${organization}&_format=json`,
    {
      data: {
        type: 'node--application',
        attributes: {
          title,
          field_description: `<p>${title} for the browser tests</p>`,
          field_allowed_grant_types: grants.grantTypes,
          field_oauth_redirect_uri: grants.redirectUris,
          field_postlogout_redirect_uri: [],
        },
      },
    },
  );
  return doc.data.meta.application;
}

/** The uuid of a product by its title (GET /jsonapi/node/api_product). */
export async function productUuid(page: Page, title: string): Promise<string> {
  const res = await page.request.get(
    `/jsonapi/node/api_product?filter[title]=${encodeURIComponent(title)}&page[limit]=1`,
  );
  expect(res.ok()).toBe(true);
  const doc = (await res.json()) as { data: { id: string }[] };
  const found = doc.data[0];
  if (!found) throw new Error(`no product titled ${title}`);
  return found.id;
}

export async function subscribe(page: Page, application: string, product: string): Promise<void> {
  await write(
    page.request,
    'post',
    '/api/application',
    { type: 'subscribe', application, product },
    'application/json',
  );
}

/** POST /jsonapi/node/go_live_form: the application becomes PRODUCTION (pending review). */
export async function requestGoLive(page: Page, app: Application): Promise<void> {
  await write(page.request, 'post', '/jsonapi/node/go_live_form', {
    data: {
      type: 'node--go_live_form',
      attributes: {
        field_developer_type: 'Company',
        field_first_name: 'Ada',
        field_last_name: 'Lovelace',
        field_company_name: 'Acme',
        field_address: '1 Main Street',
        field_email: 'ada@example.com',
        field_site_url_download_location: 'https://acme.example',
        field_use_cases: 'Balances in a budgeting app.',
      },
      relationships: { field_application: { data: { type: 'node--application', id: app.uuid } } },
    },
  });
}
