import type { Page } from '@playwright/test';
import de from '../../apps/web/src/locales/de/shell.json' with { type: 'json' };
import deOrganizations from '../../apps/web/src/locales/de/organizations.json' with { type: 'json' };
import deApplications from '../../apps/web/src/locales/de/applications.json' with { type: 'json' };
import deProducts from '../../apps/web/src/locales/de/products.json' with { type: 'json' };
import deTryout from '../../apps/web/src/locales/de/tryout.json' with { type: 'json' };
import deCredentials from '../../apps/web/src/locales/de/credentials.json' with { type: 'json' };
import { uniqueEmail } from '../support/session.ts';
import { expectNoViolations } from '../support/axe.ts';
import { expect, test } from '../support/traffic.ts';

/**
 * The developer journey in German (issue 30): a visitor whose browser prefers German lands on
 * `/de/`, signs up, creates an organization and an application, subscribes it and calls the
 * sandbox from the try-out console, every page of the web app in German. The sign-up form is the
 * identity provider's page: its fields are found by name, whatever language it speaks.
 */
test.use({ locale: 'de-DE' });
test.describe.configure({ timeout: 150_000 });

const O = deOrganizations.organizations;
const A = deApplications.applications;
const P = deProducts.products;
const T = deTryout.tryout;

async function signUpInGerman(page: Page, firstName: string, lastName: string): Promise<string> {
  const email = uniqueEmail(firstName.toLowerCase());
  await page.getByRole('banner').getByRole('link', { name: de.user.signUp, exact: true }).click();
  await page.waitForURL(/\/idp\/interaction\//);
  await page.locator('input[name="firstName"]').fill(firstName);
  await page.locator('input[name="lastName"]').fill(lastName);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill('Secret#Passw0rd');
  await page.locator('form button[type="submit"]').last().click();
  await expect(page.getByText(`Willkommen, ${firstName} ${lastName}`)).toBeVisible();
  return email;
}

test('a German visitor signs up, builds an application, subscribes it and tries an API, in German', async ({
  page,
}) => {
  // First visit: the browser's language decides, and the address says it.
  await page.goto('/');
  await expect(page).toHaveURL(/\/de\/?$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: de.user.login, exact: true })).toBeVisible();
  await expect(page.getByRole('navigation', { name: de.menu.mainMenu })).toContainText(
    de.menu.gettingStarted,
  );
  await expect(page.getByText(de.home.hero)).toBeVisible();
  await expectNoViolations(page, 'home page in German');

  await signUpInGerman(page, 'Greta', 'Entwickler');
  await expect(page).toHaveURL(/\/de\/?$/);
  await expect(header.getByRole('button', { name: de.user.signOut })).toBeVisible();
  await expect(page.getByRole('navigation', { name: de.menu.mainMenu })).toContainText(de.menu.apiProducts);
  // Until the address is confirmed, a notice says so, in German too.
  const notice = page.getByRole('region', { name: de.identity.verifyTitle });
  await expect(notice).toContainText('Bitte bestätigen Sie Ihre E-Mail-Adresse');
  await expect(notice.getByRole('button', { name: de.identity.resendVerification })).toBeVisible();

  // An organization.
  await page.goto('/de/organizations');
  await expect(page.getByRole('heading', { name: O.listTitle })).toBeVisible();
  await expect(page.getByText(O.noOrganizations)).toBeVisible();
  await page.getByRole('link', { name: O.createButton }).click();
  await expect(page).toHaveURL(/\/de\/organization\/create$/);
  await expect(page.getByRole('heading', { name: O.createTitle })).toBeVisible();
  await page.getByRole('button', { name: O.createSubmit }).click();
  await expect(page.getByText(O.titleRequired)).toBeVisible();
  const orgName = `Beispiel GmbH ${Date.now()}`;
  await page.getByLabel(O.fieldTitle).fill(orgName);
  await page.getByLabel(O.fieldDescription).fill('Wir bauen Budget-Apps.');
  await page.getByRole('button', { name: O.createSubmit }).click();
  await page.waitForURL(/\/de\/organization\/[0-9a-f-]{36}$/);
  const organization = page.url().split('/').pop()!;
  await expect(page.getByRole('heading', { name: orgName, level: 1 })).toBeVisible();
  const crumbs = page.getByRole('navigation', { name: de.layout.breadcrumb });
  await expect(crumbs.getByRole('link', { name: O.breadcrumbOrganizations })).toHaveAttribute(
    'href',
    '/de/organizations',
  );
  await expectNoViolations(page, 'organization page in German');
  // Dates as German readers write them.
  await page.goto('/de/organizations');
  await expect(page.getByRole('row').filter({ hasText: orgName })).toContainText(/\d{2}\.\d{2}\.\d{4}/);

  // An application.
  await page.goto(`/de/application?organization=${organization}`);
  await expect(page.getByRole('heading', { name: A.createTitle })).toBeVisible();
  await page.getByRole('button', { name: A.ui.create }).click();
  await expect(page.getByText(A.grantTypeRequired)).toBeVisible();
  const title = `Haushaltsbuch ${Date.now()}`;
  await page.getByLabel(A.ui.title).fill(title);
  await page.getByRole('textbox', { name: A.ui.description }).fill('Liest Kontostände.');
  await page.getByRole('checkbox', { name: A.ui.clientCredentials }).check();
  await page.getByRole('button', { name: A.ui.create }).click();
  await expect(page).toHaveURL(/\/de\/application\/[0-9a-f-]{36}\?organization=/);
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(page.getByText(A.ui.credentials, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: `${A.ui.show} ${A.ui.clientSecret}` })).toBeVisible();
  await expect(page.getByText(A.noSubscription)).toBeVisible();
  await expect(
    page.getByRole('heading', { name: deCredentials.clientSecrets.heading, exact: true }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: deCredentials.clientAuth.legend })).toBeVisible();

  // A subscription.
  await page.getByRole('button', { name: A.ui.addProducts }).click();
  const modal = page.getByRole('dialog', { name: A.ui.selectProduct });
  await expect(modal).toHaveCSS('opacity', '1');
  await expectNoViolations(page, 'product selection in German');
  // The products by their German titles (content/catalog/products.yaml), as the product pages show them.
  await modal.getByRole('button', { name: `${A.ui.subscribe} Konten-API`, exact: true }).click();
  await expect(modal.getByRole('button', { name: `${A.ui.unsubscribe} Konten-API` })).toBeVisible();
  await modal.getByRole('button', { name: de.dialog.close }).first().click();
  await expect(page.getByText(A.ui.subscriptions).first()).toBeVisible();
  // The application page's list names the product in German too (the page's language).
  const subscribed = page.getByTestId('subscription');
  await expect(subscribed).toHaveCount(1);
  await expect(subscribed).toContainText('Konten-API');
  await expect(subscribed).not.toContainText('Accounts API');

  // The product catalogue and the documentation.
  await page.goto('/de/apiProducts');
  await expect(page.getByRole('heading', { name: P.listTitle })).toBeVisible();
  await expectNoViolations(page, 'API products in German');

  // The try-out console: a token for the new application, then a sandbox call.
  const apps = (await (await page.request.get('/phpsdk/organization/apps?page[limit]=50')).json()) as {
    data: { title: string; clientSecret: string | null }[];
  };
  const secret = apps.data.find((a) => a.title === title)?.clientSecret;
  expect(secret).toBeTruthy();
  await page.goto('/de/documentation/accounts-v1#operation/getAccount');
  const details = page.getByTestId('operation-details-getAccount');
  await details.getByRole('button', { name: T.tryItOut }).click();
  const tryout = page.getByRole('dialog', { name: /ausprobieren/ });
  await expect(tryout.getByTestId('tryout-panel')).toBeVisible();
  await expect(tryout.getByTestId('tryout-state')).toHaveText(T.state_idle);
  await expect(tryout.getByLabel(T.clientId)).toContainText(title);
  await tryout.getByLabel(T.clientSecret).fill(secret!);
  await tryout.getByRole('button', { name: T.getToken }).click();
  const token = tryout.getByTestId('tryout-token');
  await expect(token).toContainText('Läuft in 60 Min. ab');
  await token.getByRole('button', { name: T.apply }).click();
  await tryout.getByRole('combobox', { name: 'accountId' }).fill('acc-1001');
  await tryout.getByRole('button', { name: T.send, exact: true }).click();
  await expect(tryout.getByTestId('tryout-state')).toHaveText(T.state_success);
  await expect(tryout.getByTestId('tryout-status')).toHaveText('200 OK');
  await expect(tryout).toHaveCSS('opacity', '1');
  await expectNoViolations(page, 'try-out console in German');
});
