import { expect, type Page } from '@playwright/test';
import { en } from '@portico/contracts/messages';

/** Fixtures of the organization flows: fresh accounts through sign-up, files, and API shortcuts. */

export interface Account {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

export function account(firstName: string, lastName: string, email: string): Account {
  return { firstName, lastName, email, password: 'Secret#Passw0rd' };
}

/** Signs a fresh account up through the portal's SIGN UP link, as a visitor would. */
export async function signUp(page: Page, who: Account): Promise<void> {
  await page.goto('/');
  await page.getByRole('link', { name: en.user.signUp }).click();
  await page.waitForURL(/\/idp\/interaction\//);
  await page.getByLabel(en.identity.firstNameLabel).fill(who.firstName);
  await page.getByLabel(en.identity.lastNameLabel).fill(who.lastName);
  await page.getByLabel(en.identity.emailLabel).fill(who.email);
  await page.getByLabel(en.identity.passwordLabel).fill(who.password);
  await page.getByRole('button', { name: en.identity.createAccountButton }).click();
  await expect(page.getByText(`Welcome ${who.firstName} ${who.lastName}`)).toBeVisible();
}

/** An 8x8 PNG (real image bytes: the server checks the magic bytes, the browser decodes it). */
export const pngFile = {
  name: 'logo.png',
  mimeType: 'image/png',
  buffer: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGOQSzmBFTEMLQkAEihSgcW67YAAAAAASUVORK5CYII=',
    'base64',
  ),
};

export const textFile = (name: string) => ({
  name,
  mimeType: 'text/plain',
  buffer: Buffer.from('Technical notes for the go-live review.\n'),
});

export const pdfFile = (name: string) => ({
  name,
  mimeType: 'application/pdf',
  buffer: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
});

/** A file whose bytes do not match its extension (a .pdf that is not a PDF). */
export const fakePdf = (name: string) => ({
  name,
  mimeType: 'application/pdf',
  buffer: Buffer.from('this is not a pdf'),
});

export const exeFile = (name: string) => ({
  name,
  mimeType: 'application/octet-stream',
  buffer: Buffer.from('MZ fake executable'),
});

/** Chooses files through a button that opens the browser's file chooser (Mantine FileInput). */
export async function chooseFiles(
  page: Page,
  label: string,
  files: { name: string; mimeType: string; buffer: Buffer }[],
): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: label }).click();
  await (await chooser).setFiles(files);
}

/** Creates an organization through the API with the page's session (for list and delete checks). */
export async function createOrganizationByApi(page: Page, title: string): Promise<string> {
  const res = await page.request.post('/jsonapi/group/organization', {
    headers: await writeHeaders(page),
    data: {
      data: {
        type: 'group--organization',
        attributes: { label: title, field_body: { value: '', format: 'plain_text' } },
      },
    },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

async function writeHeaders(page: Page): Promise<Record<string, string>> {
  const token = await (await page.request.get('/session/token')).text();
  return { 'Content-Type': 'application/vnd.api+json', 'X-CSRF-Token': token };
}

/**
 * Puts an application of the organization in PRODUCTION the way a developer does (applications
 * module, spec A 7): create it, subscribe it to the demo Accounts API (no PSD2 certificate needed)
 * and submit the go-live form, which makes it PRODUCTION while the provider reviews it.
 */
export async function createProductionApplication(page: Page, organizationId: string, title: string) {
  const headers = await writeHeaders(page);
  const product = await page.request.get('/phpsdk/products/getProductUuid?pathAlias=accounts-api-v1');
  expect(product.status()).toBe(200);
  const productId = ((await product.json()) as { data: { uuid: string } }).data.uuid;

  const created = await page.request.post(
    `/phpsdk/organization/apps/create?ORGANIZATION=${organizationId}&_format=json`,
    {
      headers,
      data: {
        data: {
          type: 'node--application',
          attributes: {
            title,
            field_description: '<p>Reads balances</p>',
            field_allowed_grant_types: ['client_credentials'],
            field_oauth_redirect_uri: [],
            field_postlogout_redirect_uri: [],
          },
          relationships: {
            field_application_subscriptions: { data: [{ type: 'node--api_product', id: productId }] },
          },
        },
      },
    },
  );
  expect(created.status()).toBe(201);
  const applicationId = ((await created.json()) as { data: { id: string } }).data.id;

  const goLive = await page.request.post('/jsonapi/node/go_live_form', {
    headers,
    data: {
      data: {
        type: 'node--go_live_form',
        attributes: {
          field_developer_type: 'Company',
          field_first_name: 'Olga',
          field_last_name: 'Owner',
          field_company_name: 'Acme',
          field_address: '1 Main St',
          field_email: 'olga@example.com',
          field_site_url_download_location: 'https://acme.example',
          field_use_cases: 'Balances for our customers.',
        },
        relationships: { field_application: { data: { type: 'node--application', id: applicationId } } },
      },
    },
  });
  expect(goLive.status()).toBe(201);
  return applicationId;
}

/** Invites an address through the API with the page's (owner's) session. */
export async function inviteByApi(page: Page, organizationId: string, email: string, roles: string[]) {
  const res = await page.request.post('/phpsdk/organization/invite', {
    headers: { ...(await writeHeaders(page)), 'Content-Type': 'application/json' },
    data: { gid: organizationId, email, group_roles: roles },
  });
  expect(res.status()).toBe(201);
}
