import { readFile } from 'node:fs/promises';
import { expect, test } from '../support/traffic.ts';
import { en } from '@portico/contracts/messages';
import { createApplication, createOrganization, signUp } from '../support/applications.ts';
import { expectNoViolations } from '../support/axe.ts';

const UI = en.applications.ui;

test('a developer downloads a software statement and a TPP tool registers a client with it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUp(page, 'Tara', 'Tooling');
  const organization = await createOrganization(page, `TPP Tools ${Date.now()}`);
  const app = await createApplication(page, organization, `Aggregator ${Date.now()}`, {
    grantTypes: ['client_credentials', 'authorization_code'],
    redirectUris: ['https://aggregator.example/callback'],
  });

  await page.goto(`/application/${app.uuid}?organization=${organization}`);
  await expect(page.getByRole('heading', { name: UI.registration })).toBeVisible();
  await expect(
    page.getByText(/with its software statement, sent to http:\/\/.+\/oauth\/reg\./),
  ).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: UI.downloadStatement }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^aggregator-\d+-software-statement\.jwt$/);
  const statement = (await readFile(await download.path())).toString('utf8');
  expect(statement.split('.')).toHaveLength(3);
  await expectNoViolations(page, 'application view with dynamic registration');

  // The TPP's tooling registers a client with it (RFC 7591), outside the browser session.
  const registered = await page.request.fetch('/oauth/reg', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    data: JSON.stringify({
      software_statement: statement,
      client_name: 'Aggregator (registered by our tooling)',
      grant_types: ['client_credentials'],
      response_types: [],
    }),
  });
  expect(registered.status()).toBe(201);
  const client = (await registered.json()) as { client_id: string };

  // It is an application of the organization like any other.
  await page.goto(`/organization/${organization}`);
  await expect(page.getByRole('link', { name: 'Aggregator (registered by our tooling)' })).toBeVisible();
  await page.getByRole('link', { name: 'Aggregator (registered by our tooling)' }).click();
  await expect(page.getByRole('heading', { name: 'Aggregator (registered by our tooling)' })).toBeVisible();
  await expect(page.getByText(/Registered by the TPP's own tooling/)).toBeVisible();
  await page.getByRole('button', { name: `${UI.show} ${UI.clientIdDevelopment}` }).click();
  await expect(page.getByText(client.client_id)).toBeVisible();
});
