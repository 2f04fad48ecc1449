import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { expectNoViolations } from '../support/axe.ts';
import { ownPortalURL, startOwnPortal } from '../support/own-portal.ts';
import { demoDeveloper, e2eApiManager, signIn } from '../support/session.ts';
import { expect, test, trackTraffic } from '../support/traffic.ts';

/**
 * An API manager uploads a new version of a demo API from the console, sees the change summary
 * with the breaking change marked, publishes it and notifies the applications that called the
 * removed operation; the developer then sees the new operation, the changelog entry and the notice
 * (issue 27, decision 047). The publication changes the demo's Accounts API for good (its version,
 * reference, changelog and a notice): the test runs on a portal of its own, so the suite's portal
 * keeps the demo content as it was.
 */
const M = en.console.apis;
// Two sign-ins, an upload compared in the worker threads, a publication and axe runs.
test.describe.configure({ timeout: 120_000 });

/** The demo's deprecated Accounts API, version 0.9.0, as content/ has it. */
const V0 = fs.readFileSync(new URL('../../content/openapi/accounts-v0.yaml', import.meta.url), 'utf8');

/** Version 0.10.0: GET /accounts/{id} removed, GET /statements added. */
function nextVersion(): string {
  const start = V0.indexOf('  /accounts/{id}:\n');
  const end = V0.indexOf('components:\n');
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  const statements = `  /statements:
    get:
      tags: [Accounts]
      operationId: listStatements
      summary: List statements
      security:
        - oauth2: [accounts:read]
      responses:
        '200':
          description: The monthly statements.
          content:
            application/json:
              example:
                - month: 2026-10
                  accountId: acc-1001
`;
  return (V0.slice(0, start) + statements + V0.slice(end)).replace('version: 0.9.0', 'version: 0.10.0');
}

async function declineCookies(page: Page): Promise<void> {
  await page
    .getByRole('dialog', { name: en.cookies.settingsTitle })
    .getByRole('button', { name: en.cookies.decline })
    .click();
}

test.describe('on a portal of its own', () => {
  test.use({ baseURL: ownPortalURL });
  let portal: Awaited<ReturnType<typeof startOwnPortal>> | undefined;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    portal = await startOwnPortal();
  });
  test.afterAll(async () => {
    test.setTimeout(30_000);
    await portal?.close();
  });

  test('an API manager publishes a new version; the developer whose application called the removed operation is told', async ({
    browser,
    page,
  }) => {
    // The developer's Budget Buddy calls GET /accounts/{id} of the Accounts API 0.9 in the sandbox
    // with its own development credentials.
    const devContext = await browser.newContext({ baseURL: ownPortalURL });
    trackTraffic(devContext);
    const dev = await devContext.newPage();
    await signIn(dev, demoDeveloper.email, demoDeveloper.password);
    const apps = await dev.request.get('/phpsdk/organization/apps?page[limit]=50');
    expect(apps.ok()).toBe(true);
    const budgetBuddy = (
      (await apps.json()) as {
        data: {
          uuid: string;
          title: string;
          organizationId: string;
          clientId: { development: string | null };
          clientSecret: string | null;
        }[];
      }
    ).data.find((a) => a.title === 'Budget Buddy');
    expect(budgetBuddy?.clientId.development).toBeTruthy();
    expect(budgetBuddy?.clientSecret).toBeTruthy();
    const token = await dev.request.post('/oauth/token', {
      form: {
        grant_type: 'client_credentials',
        client_id: budgetBuddy!.clientId.development!,
        client_secret: budgetBuddy!.clientSecret!,
      },
    });
    expect(token.ok(), await token.text()).toBe(true);
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    const called = await dev.request.get('/sandbox/accounts-v0/accounts/acc-1001', {
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    expect(called.status(), await called.text()).toBe(200);

    // The API manager signs in through the portal and opens the console's API products.
    await signIn(page, e2eApiManager.email, e2eApiManager.password);
    await declineCookies(page);
    await page.goto('/admin');
    await page
      .getByRole('navigation', { name: en.console.navLabel })
      .getByRole('link', { name: en.console.nav.products })
      .click();
    await expect(page).toHaveURL(/\/admin\/apis$/);
    const row = page.getByTestId('api-row-accounts-v0');
    await expect(row).toContainText('0.9.0');
    await expectNoViolations(page, 'console API products');

    await row.getByRole('button', { name: new RegExp(M.uploadNewVersion) }).click();
    await expect(
      page.getByRole('heading', { name: format(M.uploadTitle, { title: 'Accounts API' }) }),
    ).toBeFocused();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: M.fileLabel }).click();
    await (
      await chooser
    ).setFiles({
      name: 'accounts-v0.yaml',
      mimeType: 'application/yaml',
      buffer: Buffer.from(nextVersion()),
    });
    await page.getByRole('button', { name: M.upload }).click();

    // The change summary: the removed operation marked breaking, the new one added.
    await expect(
      page.getByRole('heading', { name: format(M.draftTitle, { version: '0.10.0', title: 'Accounts API' }) }),
    ).toBeVisible();
    const removed = page.getByRole('list', { name: format(M.removed, { count: 1 }) });
    await expect(removed).toContainText('GET /accounts/{id}');
    await expect(removed.getByText(M.breaking, { exact: true })).toBeVisible();
    const added = page.getByRole('list', { name: format(M.added, { count: 1 }) });
    await expect(added).toContainText('GET /statements');
    await expect(added.getByText(M.breaking, { exact: true })).toHaveCount(0);
    await expect(page.getByTestId('draft-preview')).toContainText('List statements');
    const changelog = page.getByRole('textbox', { name: M.changelogLabel });
    await expect(changelog).toHaveValue(/`GET \/statements` List statements/);
    await expectNoViolations(page, 'console API draft');

    await changelog.fill(`${await changelog.inputValue()}\n\nMonthly statements are available now.`);
    await page.getByRole('button', { name: M.publish }).click();
    await expect(page.getByTestId('draft-published')).toContainText(
      format(M.published, { version: '0.10.0', title: 'Accounts API' }),
    );

    // The notice: its audience is Budget Buddy, in the developer's organization.
    await expect(page.getByTestId('notice-audience')).toHaveText(
      format(M.audience, { applications: 1, organizations: 1 }),
    );
    const noticeText = 'GET /accounts/{id} is gone in version 0.10.0: read the account from GET /accounts.';
    await page.getByRole('textbox', { name: M.noticeLabel }).fill(noticeText);
    await page.getByRole('button', { name: M.sendNotice }).click();
    await expect(page.getByTestId('notice-sent')).toHaveText(
      format(M.noticeSent, { recipients: 1, organizations: 1 }),
    );

    // The developer sees the new operation and the changelog entry in the documentation...
    await dev.goto('/documentation/accounts-v0');
    // The reference lists the new operation and not the removed one (the changelog names both).
    await expect(dev.locator('[data-operation="listStatements"]')).toContainText('List statements');
    await expect(dev.locator('[data-operation="getAccountById"]')).toHaveCount(0);
    await expect(dev.getByTestId('changelog')).toContainText('Monthly statements are available now.');
    // ... and the notice on the application's page.
    await dev.goto(`/application/${budgetBuddy!.uuid}?organization=${budgetBuddy!.organizationId}`);
    const notice = dev.getByTestId('application-notice');
    await expect(notice).toContainText(noticeText);
    await expect(notice).toContainText('GET /accounts/{id}');
    await expectNoViolations(dev, 'application page with a notice');
    await devContext.close();
  });
});
