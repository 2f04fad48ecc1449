import fs from 'node:fs';
import { en } from '@portico/contracts/messages';
import { createApplication, createOrganization, signUp } from '../support/applications.ts';
import { expectNoViolations } from '../support/axe.ts';
import { demoAdmin, signIn } from '../support/session.ts';
import { expect, test, trackTraffic } from '../support/traffic.ts';

/**
 * The audit log (issue 27): a developer resets a client secret through the application page; the
 * organization's owner sees it on the organization page; the provider administrator finds it in
 * the console's audit log, filters for it, opens its before and after, and exports it as CSV.
 */
const A = en.console.audit;
const UI = en.applications.ui;
const ACTIVITY = en.organizations.activity;

test('a secret reset shows in the organization’s activity and in the console’s audit log, filtered and exported', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const devContext = await browser.newContext();
  trackTraffic(devContext);
  try {
    const dev = await devContext.newPage();
    const email = await signUp(dev, 'Audra', 'Resetter');
    const organization = await createOrganization(dev, `Audit Co ${Date.now()}`);
    const title = `Audited app ${Date.now()}`;
    const app = await createApplication(dev, organization, title);

    // The developer resets the secret on the application page, as a user does.
    await dev.goto(`/application/${app.uuid}?organization=${organization}`);
    await dev.getByRole('button', { name: UI.resetSecret }).click();
    await dev.getByRole('dialog', { name: UI.resetSecret }).getByRole('button', { name: UI.confirm }).click();
    await expect(dev.getByTestId('new-secret')).toContainText(en.applications.copySecret);

    // The creator owns the organization: its page shows the activity, newest first.
    await dev.goto(`/organization/${organization}`);
    await expect(dev.getByRole('heading', { name: ACTIVITY.title })).toBeVisible();
    await dev.getByRole('button', { name: ACTIVITY.show }).click();
    const activity = dev.getByTestId('organization-activity');
    const resetRow = activity.getByRole('row').filter({ hasText: ACTIVITY.actions.application.secret_reset });
    await expect(resetRow).toHaveCount(1);
    await expect(resetRow).toContainText(email);
    await expect(resetRow).toContainText(title);
    await expect(
      activity.getByRole('row').filter({ hasText: ACTIVITY.actions.organization.created }),
    ).toHaveCount(1);
    await expectNoViolations(dev, 'the organization page with its activity');

    // The provider administrator, in the console.
    await signIn(page, demoAdmin.email, demoAdmin.password);
    await page.goto('/admin');
    await page
      .getByRole('navigation', { name: en.console.navLabel })
      .getByRole('link', { name: en.console.nav.audit })
      .click();
    await expect(page.getByRole('heading', { name: A.title })).toBeVisible();
    await page.getByLabel(A.action, { exact: true }).selectOption('application.secret_reset');
    await page.getByLabel(A.actor).fill(email);
    await page.getByRole('button', { name: A.apply }).click();
    await expect(page).toHaveURL(/[?&]action=application\.secret_reset/);
    const rows = page.getByTestId('audit-row');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(email);
    await expect(rows.first()).toContainText(title);
    await expect(page.getByTestId('audit-count')).toHaveText(A.count.replace('{{count}}', '1'));

    // Before and after, as formatted JSON: the environment and client id, never the secret.
    const toggle = rows.first().getByRole('button');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByText('"environment": "DEVELOPMENT"')).toBeVisible();
    await expectNoViolations(page, 'the console audit log');

    // Export CSV with the same filters.
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: A.exportCsv }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = fs
      .readFileSync((await file.path())!, 'utf8')
      .split('\r\n')
      .filter(Boolean);
    expect(lines[0]).toBe(
      'at,actor_email,action,target_type,target_id,target_label,organization_id,organization,ip,before,after',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(
      `,${email},application.secret_reset,application,${app.uuid},${title},${organization},`,
    );

    // Clearing the filters shows the rest of the log again.
    await page.getByRole('button', { name: A.reset }).click();
    await expect(page).not.toHaveURL(/action=/);
    await expect(rows.nth(1)).toBeVisible();
  } finally {
    await devContext.close();
  }
});

test('a developer without a provider role is refused the audit log', async ({ page }) => {
  await signUp(page, 'Nosy', 'Developer');
  await page.goto('/admin/audit');
  await expect(page.getByTestId('console-refused')).toContainText(en.console.notForYou);
  const res = await page.request.get('/admin-api/audit');
  expect(res.status()).toBe(403);
});
