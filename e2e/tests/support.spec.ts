import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import { demoAdmin, signIn } from '../support/session.ts';

/**
 * The support area (issue 14): the contact form with its real proof-of-work captcha (the portal
 * runs with NODE_ENV=test, whose challenges are small), the message reaching the outbox.
 */
const M = en.support;
const ROBOT = "I'm not a robot";
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** Opens a page and declines the cookie popup, which would cover the form. */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page
    .getByRole('dialog', { name: en.cookies.settingsTitle })
    .getByRole('button', { name: en.cookies.decline })
    .click();
}

async function expectNoViolations(page: Page, screen: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const found = violations.map(
    (v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`,
  );
  expect(found, `axe on ${screen}`).toEqual([]);
}

test('the support page shows the three boxes and the contact form', async ({ page }) => {
  await open(page, '/support');
  await expect(page.getByRole('heading', { level: 1, name: M.title })).toBeVisible();
  await expect(page.getByRole('link', { name: M.visitForum })).toHaveAttribute('href', '/forum');
  await expect(page.getByRole('link', { name: M.viewFaq })).toHaveAttribute('href', '/faq-page');
  await expect(page.getByRole('link', { name: M.raiseTicket })).toHaveAttribute(
    'href',
    '/support/ticket/create',
  );
  const form = page.getByRole('form', { name: M.contactTitle });
  await expect(form.getByRole('button', { name: M.send })).toBeDisabled();
  await expect(form.getByRole('checkbox', { name: ROBOT })).toBeVisible();
  await expectNoViolations(page, '/support');
});

test('a visitor sends the contact form after solving the captcha; it reaches the outbox', async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);
  const subject = `Sandbox question ${Date.now()}`;
  await open(page, '/support/contact');
  await expect(page.getByRole('heading', { level: 1, name: M.contactTitle })).toBeVisible();
  const form = page.getByRole('form', { name: M.contactTitle });
  await form.getByLabel(M.name).fill('Grace Hopper');
  await form.getByLabel(M.mail).fill('grace@example.com');
  await form.getByLabel(M.subject).fill(subject);
  await form.getByLabel(M.message).fill('Which headers does the payments sandbox expect?');
  const send = form.getByRole('button', { name: M.send });
  await expect(send).toBeDisabled();
  await form.getByText(ROBOT).click();
  await expect(send).toBeEnabled({ timeout: 20_000 });
  await expectNoViolations(page, '/support/contact');
  await send.click();
  await expect(page.getByText(M.sent)).toBeVisible();
  // The form starts again: empty fields, a new captcha to solve.
  await expect(form.getByLabel(M.subject)).toHaveValue('');
  await expect(send).toBeDisabled();

  // Leaving the page clears the message.
  await page.goto('/support');
  await page.goto('/support/contact');
  await expect(page.getByText(M.sent)).toHaveCount(0);

  const context = await browser.newContext();
  const admin = await context.newPage();
  await signIn(admin, demoAdmin.email, demoAdmin.password);
  await admin.goto('/admin/outbox');
  await expect(admin.getByText(`[Contact] ${subject}`)).toBeVisible();
  await context.close();
});

test('the server’s message is shown when sending fails', async ({ page }) => {
  await page.route('**/contact_message*', (route) =>
    route.fulfill({
      status: 429,
      contentType: 'application/vnd.api+json',
      body: JSON.stringify({
        errors: [{ status: '429', title: M.tooManyMessages, detail: M.tooManyMessages }],
      }),
    }),
  );
  await open(page, '/support/contact');
  const form = page.getByRole('form', { name: M.contactTitle });
  await form.getByLabel(M.name).fill('Grace Hopper');
  await form.getByLabel(M.mail).fill('grace@example.com');
  await form.getByLabel(M.subject).fill('Again');
  await form.getByLabel(M.message).fill('Hello');
  await form.getByText(ROBOT).click();
  await form.getByRole('button', { name: M.send }).click();
  await expect(page.getByRole('alert').filter({ hasText: M.tooManyMessages })).toBeVisible();
});
