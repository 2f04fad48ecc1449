import type { Page } from '@playwright/test';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { consoleMessages as C } from '@portico/contracts/messages/console';
import { account, signUp } from '../support/organizations.ts';
import { demoAdmin, demoDeveloper, signIn, uniqueEmail } from '../support/session.ts';
import { expectNoViolations } from '../support/axe.ts';
import { consoleLink, consoleNav, openConsoleSection } from '../support/console.ts';
import { PROVIDER_TEAM } from '../support/provider-team.ts';
import { expect, test, trackTraffic } from '../support/traffic.ts';

/**
 * The support area (issue 14): the contact form with its real proof-of-work captcha (the portal
 * runs with NODE_ENV=test, whose challenges are small), the message reaching the outbox.
 */
const M = en.support;
const ROBOT = "I'm not a robot";

/** Opens a page and declines the cookie popup, which would cover the form. */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await declineCookies(page);
}

async function declineCookies(page: Page): Promise<void> {
  await page
    .getByRole('dialog', { name: en.cookies.settingsTitle })
    .getByRole('button', { name: en.cookies.decline })
    .click();
}

/** The e-mails the portal stored for `to`, newest first (read as the demo administrator). */
async function outboxSubjects(admin: Page, to: string): Promise<string[]> {
  const res = await admin.request.get(
    `/admin-api/outbox?filter[to]=${encodeURIComponent(to)}&page[limit]=20`,
  );
  expect(res.status()).toBe(200);
  const doc = (await res.json()) as { data: { attributes: { subject: string } }[] };
  return doc.data.map((m) => m.attributes.subject);
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
  trackTraffic(context);
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

test('a ticket is raised, answered by support staff, closed and re-opened, with the e-mails', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const title = `Sandbox 502 on payments ${Date.now()}`;
  await signIn(page);
  await declineCookies(page);
  await page.goto('/support/ticket/all');
  await expect(page.getByRole('heading', { level: 1, name: M.ticketsTitle })).toBeVisible();
  await expect(page.getByText(M.noTickets)).toBeVisible();
  await expectNoViolations(page, '/support/ticket/all');
  await page.getByRole('link', { name: M.createTicket }).click();
  await expect(page).toHaveURL(/\/support\/ticket\/create$/);

  const form = page.getByRole('form', { name: M.createTitle });
  await form.getByLabel(M.ticketTitle).focus();
  await form.getByLabel(M.contactInfo).focus();
  await expect(form.getByText(M.required)).toHaveCount(1);
  await expectNoViolations(page, '/support/ticket/create');
  await form.getByRole('button', { name: M.submitTicket }).click();
  await expect(form.getByText(M.required)).toHaveCount(6);
  await form.getByLabel(M.ticketTitle).fill(title);
  await form.getByLabel(M.contactInfo).fill('+44 20 7946 0000');
  await form.getByLabel(M.description).fill('Every POST /payments answers 502.');
  await form.getByLabel(M.environmentLabel).selectOption('Test');
  await form.getByLabel(M.severityLabel).selectOption('High');
  await form.getByLabel(M.details).fill('Request-Id 7f3c, since 08:10 UTC.');
  await form.locator('input[type="file"]').setInputFiles({
    name: 'gateway-log.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('POST /payments -> 502\n'),
  });
  await form.getByRole('button', { name: M.submitTicket }).click();

  await expect(page).toHaveURL(/\/support\/ticket\/\d+\?created=true$/);
  const nid = /ticket\/(\d+)/.exec(page.url())![1]!;
  await expect(page.getByText(M.created)).toBeVisible();
  await expect(page.getByRole('link', { name: 'gateway-log.txt' })).toBeVisible();
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs.getByRole('link', { name: M.title })).toBeVisible();
  await expect(crumbs.getByRole('link', { name: M.ticketsTitle })).toBeVisible();
  await expect(crumbs.getByText(title)).toBeVisible();
  await expect(page.getByRole('button', { name: M.markClosed })).toBeVisible();
  await expectNoViolations(page, '/support/ticket/:id');

  // Support staff (the demo administrator) find it in the queue, answer and close it.
  const context = await browser.newContext();
  trackTraffic(context);
  const admin = await context.newPage();
  await signIn(admin, demoAdmin.email, demoAdmin.password);
  await declineCookies(admin);
  await openConsoleSection(admin, C.nav.supportQueue);
  await expect(admin.getByRole('heading', { level: 1, name: M.queueTitle })).toBeVisible();
  await admin.getByLabel(M.severity).selectOption('High');
  await admin.getByLabel(M.environment).selectOption('Test');
  await expectNoViolations(admin, '/admin/support');
  await admin.getByRole('link', { name: title }).click();
  await admin.getByLabel(M.replyLabel).fill('Thanks, we restarted the sandbox gateway. Please try again.');
  await admin.getByRole('button', { name: M.sendReply }).click();
  await expect(admin.getByText('Thanks, we restarted the sandbox gateway.')).toBeVisible();
  await admin.getByRole('button', { name: M.markClosed }).click();
  await expect(admin.getByTestId('ticket-status')).toHaveText('CLOSED');

  // The developer sees the answer, styled as one, and no reply form on a closed ticket.
  await page.goto(`/support/ticket/${nid}`);
  const answer = page.locator('[data-answer="true"]');
  await expect(answer).toContainText('Thanks, we restarted the sandbox gateway.');
  await expect(answer).toContainText('Answer from Ada Admin');
  await expect(page.getByTestId('ticket-status')).toHaveText('CLOSED');
  await expect(page.getByLabel(M.replyLabel)).toHaveCount(0);
  await page.getByRole('button', { name: M.reopen }).click();
  await expect(page.getByTestId('ticket-status')).toHaveText('OPEN');
  await page.getByLabel(M.replyLabel).fill('Works again, thank you!');
  await page.getByRole('button', { name: M.sendReply }).click();
  await expect(page.getByText('Works again, thank you!')).toBeVisible();
  await expect(page.getByLabel(M.replyLabel)).toHaveValue('');

  await page.goto('/support/ticket/all');
  await expect(page.getByRole('row', { name: new RegExp(title) })).toContainText('OPEN');

  // The e-mails: staff on the new ticket and the reply, the developer on the answer and the status.
  const toDeveloper = await outboxSubjects(admin, demoDeveloper.email);
  expect(toDeveloper).toContain(`[Ticket #${nid}] Support replied: ${title}`);
  expect(toDeveloper).toContain(`[Ticket #${nid}] Status changed to CLOSED: ${title}`);
  const toStaff = await outboxSubjects(admin, 'developers@portico.local');
  expect(toStaff).toContain(`[Ticket #${nid}] New ticket: ${title}`);
  expect(toStaff).toContain(`[Ticket #${nid}] New reply: ${title}`);
  await context.close();
});

test('someone else’s ticket is not found', async ({ page }) => {
  await signIn(page, demoAdmin.email, demoAdmin.password);
  await page.goto('/support/ticket/999999');
  await expect(page.getByRole('alert')).toHaveText(M.ticketNotFound);
});

test('an administrator adds and removes support staff; a staff member gets the queue in the console', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const helper = account('Sam', `Staff${Date.now()}`, uniqueEmail('staff'));
  const name = `${helper.firstName} ${helper.lastName}`;
  await signUp(page, helper);
  await declineCookies(page);
  await page.goto('/admin/support/staff');
  await expect(page.getByTestId('console-refused')).toContainText(C.notForYou);

  const context = await browser.newContext();
  trackTraffic(context);
  const admin = await context.newPage();
  await signIn(admin, demoAdmin.email, demoAdmin.password);
  await declineCookies(admin);
  await openConsoleSection(admin, C.nav.supportQueue);
  await admin.getByRole('link', { name: M.staffLink }).click();
  await expect(admin).toHaveURL(/\/admin\/support\/staff$/);
  await expect(admin.getByRole('heading', { level: 1, name: M.staffTitle })).toBeVisible();
  // The provider's team of the tests has a support agent already (support/provider-team.ts).
  const listed = admin.getByRole('row', { name: new RegExp(helper.email) });
  await expect(admin.getByRole('row', { name: new RegExp(PROVIDER_TEAM.support_agent.email) })).toBeVisible();
  await expect(listed).toHaveCount(0);
  await expectNoViolations(admin, '/admin/support/staff');

  const form = admin.getByRole('form', { name: M.staffAdd });
  await form.getByLabel(M.staffEmail).fill('nobody@example.com');
  await form.getByRole('button', { name: M.staffAdd }).click();
  await expect(admin.getByRole('alert').filter({ hasText: M.staffUnknownUser })).toBeVisible();
  await expectNoViolations(admin, '/admin/support/staff (unknown address)');
  await form.getByLabel(M.staffEmail).fill(helper.email);
  await form.getByRole('button', { name: M.staffAdd }).click();
  await expect(admin.getByText(format(M.staffAdded, { name }))).toBeVisible();
  await expect(admin.getByRole('row', { name: new RegExp(helper.email) })).toContainText(name);
  await expect(form.getByLabel(M.staffEmail)).toHaveValue('');
  await expectNoViolations(admin, '/admin/support/staff (one member)');

  // The new staff member, not an administrator, finds the queue in the console; the staff list is not theirs.
  await page.goto('/');
  await openConsoleSection(page, C.nav.supportQueue);
  await expect(page.getByRole('heading', { level: 1, name: M.queueTitle })).toBeVisible();
  await expect(page.getByRole('link', { name: M.staffLink })).toHaveCount(0);
  await expect(consoleNav(page).getByRole('link', { name: C.nav.supportStaff })).toHaveCount(0);

  await admin.getByRole('button', { name: format(M.staffRemoveLabel, { name }) }).click();
  await expect(admin.getByText(format(M.staffRemoved, { name }))).toBeVisible();
  await expect(listed).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('console-refused')).toContainText(C.notForYou);
  await expect(page.getByRole('banner').getByRole('link', { name: en.user.myProfile })).toBeVisible();
  await expect(consoleLink(page)).toHaveCount(0);
  await context.close();
});
