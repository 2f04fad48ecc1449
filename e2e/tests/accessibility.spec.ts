import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import { createApplication, createOrganization, signUp } from '../support/applications.ts';
import { signInAtProvider, uniqueEmail } from '../support/session.ts';
import { expectNoViolations } from '../support/axe.ts';
import { expect, test } from '../support/traffic.ts';

/**
 * WCAG 2.1 A/AA and axe's best practices on the portal's screens and dialogs, in light mode, as a
 * visitor and as a signed-in developer. A failure lists each rule with the elements that break it.
 */

/** axe's colour contrast rule alone (WCAG AA: 4.5:1 for text), on the page as it is now. */
async function expectReadableColours(page: Page, screen: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
  const found = violations.flatMap((v) =>
    v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
  );
  expect(found, `color-contrast on ${screen}`).toEqual([]);
}

test('error messages and invalid fields are readable (AA contrast) on the portal and the sign-in form', async ({
  page,
}) => {
  // A field error on white: the contact form with a bad address (shown once the field is left).
  await page.goto('/support/contact');
  const contact = page.getByRole('form', { name: en.support.contactTitle });
  await contact.getByLabel(en.support.mail).fill('not-an-address');
  await contact.getByLabel(en.support.mail).blur();
  await expect(contact.getByLabel(en.support.mail)).toHaveAttribute('aria-invalid', 'true');
  await expectReadableColours(page, 'the contact form with an error');

  // And on the dark footer: the newsletter form with a bad address.
  const newsletter = page.getByRole('form', { name: en.newsletter.title });
  await newsletter.getByLabel(en.newsletter.email).fill('not-an-address');
  await newsletter.getByRole('button', { name: en.newsletter.subscribe }).click();
  await expect(newsletter.getByText(en.newsletter.invalidEmail)).toBeVisible();
  await expectReadableColours(page, 'the newsletter form with an error');

  // The sign-in form with a wrong password (an address of its own: no demo account is slowed down).
  await page.getByRole('link', { name: en.user.login, exact: true }).click();
  await signInAtProvider(page, uniqueEmail('contrast'), 'wrong-password');
  await expect(page.getByRole('alert')).toBeVisible();
  await expectReadableColours(page, 'the sign-in form with a wrong password');
});

test('public screens have no accessibility violations', async ({ page }) => {
  test.setTimeout(60_000);
  const screens: [string, string][] = [
    ['/', en.home.hero],
    ['/documentation/accounts-v1', 'Accounts API Documentation'],
    ['/cookie-settings', en.cookies.settingsTitle],
    ['/privacy', 'Privacy policy'],
    ['/no-such-page', en.errors.notFoundTitle],
  ];
  for (const [path, heading] of screens) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expectNoViolations(page, path);
  }

  // An open operation: parameters, coloured response badges, samples.
  await page.goto('/documentation/accounts-v1');
  await page.getByTestId('operation').first().click();
  await expect(page.locator('[data-testid^="operation-details-"]').first()).toBeVisible();
  await expectNoViolations(page, 'an open operation');
});

test('a developer’s organization and application screens and dialogs have no violations', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUp(page, 'Ada', 'Access');
  const organization = await createOrganization(page, `Access Co ${Date.now()}`);
  const app = await createApplication(page, organization, `Access app ${Date.now()}`);
  const query = `?organization=${organization}`;

  const screens: [string, string][] = [
    ['/organizations', en.organizations.listTitle],
    ['/organization/create', en.organizations.createTitle],
    [`/organization/${organization}`, 'Access Co'],
    [`/organization/${organization}/members`, en.organizations.membersTitle],
    [`/application${query}`, en.applications.createTitle],
    [`/application/${app.uuid}${query}`, app.title],
    [`/application/${app.uuid}/edit${query}`, en.applications.editTitle],
    ['/apiProducts', en.products.listTitle],
    ['/apiProduct/accounts-api-v1', 'Accounts API'],
  ];
  for (const [path, heading] of screens) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expectNoViolations(page, path);
  }

  // Dialogs: focus moves into them, they are named, and nothing in them breaks a rule.
  await page.goto(`/application/${app.uuid}${query}`);
  await page.getByRole('button', { name: en.applications.ui.addProducts }).click();
  const select = page.getByRole('dialog', { name: en.applications.ui.selectProduct });
  await expect(select.getByTestId('product-row').first()).toBeVisible();
  await expect(select.locator(':focus')).toHaveCount(1);
  await expect(select).toHaveCSS('opacity', '1');
  await expectNoViolations(page, 'Select Product dialog');
  await page.keyboard.press('Escape');
  await expect(select).toBeHidden();

  await page.goto(`/organization/${organization}/members`);
  await page.getByRole('button', { name: en.organizations.inviteButton }).click();
  const invite = page.getByRole('dialog', { name: en.organizations.inviteTitle });
  await expect(invite).toBeVisible();
  await expect(invite.locator(':focus')).toHaveCount(1);
  // Colours are measured once the dialog's opening transition is over.
  await expect(invite).toHaveCSS('opacity', '1');
  await expectNoViolations(page, 'invite dialog');
});
