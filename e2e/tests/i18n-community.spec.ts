import type { Browser, Page } from '@playwright/test';
import de from '../../apps/web/src/locales/de/shell.json' with { type: 'json' };
import deSupport from '../../apps/web/src/locales/de/support.json' with { type: 'json' };
import deForum from '../../apps/web/src/locales/de/forum.json' with { type: 'json' };
import deTerminal from '../../apps/web/src/locales/de/terminal.json' with { type: 'json' };
import deCertificates from '../../apps/web/src/locales/de/certificates.json' with { type: 'json' };
import dePages from '../../apps/server/src/locales/de/pages.json' with { type: 'json' };
import { createOrganization } from '../support/applications.ts';
import { terminal, enter } from '../support/terminal.ts';
import { demoAdmin, signIn, uniqueEmail, verificationLink } from '../support/session.ts';
import { expectNoViolations } from '../support/axe.ts';
import { expect, test } from '../support/traffic.ts';

/**
 * The community areas in German (issue 30): a fresh developer, signed up on the German pages,
 * raises a support ticket and finds it listed, with German dates; posts a forum topic and a
 * comment; runs `help` in the terminal; opens the sandbox certificates page and the Quick Start.
 * Every string checked is the German message file's; axe runs on each page. Everything is the
 * fresh account's own (its organization, its ticket); its forum topic is deleted at the end.
 */
test.use({ locale: 'de-DE', viewport: { width: 1280, height: 900 } });
test.describe.configure({ timeout: 180_000 });

const S = deSupport.support;
const F = deForum.forum;
const T = deTerminal.terminal;
const C = deCertificates.certificates;
const ID = dePages.identity;
/** Intl's German date: 04.12.2026 (and a time after it where there is one). */
const GERMAN_DATE = /\d{2}\.\d{2}\.\d{4}/;

/**
 * Declines the cookie popup. Its words are the site's texts, translated as content (decision 064):
 * the demo content's German 'Ablehnen' (content/site/cookies-consent.yaml).
 */
async function declineCookies(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: de.cookies.settingsTitle });
  await dialog.getByRole('button', { name: 'Ablehnen' }).click();
  await expect(dialog).toBeHidden();
}

/** Signs a fresh account up on the German pages and proves its address (the outbox's link). */
async function signUpInGerman(page: Page, browser: Browser): Promise<string> {
  const email = uniqueEmail('gemeinschaft');
  await page.goto('/de/');
  await page.getByRole('banner').getByRole('link', { name: de.user.signUp, exact: true }).click();
  await page.waitForURL(/\/idp\/interaction\//);
  await page.getByLabel(ID.firstNameLabel).fill('Gerda');
  await page.getByLabel(ID.lastNameLabel).fill('Gemeinschaft');
  await page.getByLabel(ID.emailLabel).fill(email);
  await page.getByLabel(ID.passwordLabel).fill('Secret#Passw0rd');
  await page.getByRole('button', { name: ID.createAccountButton }).click();
  await expect(page.getByText('Willkommen, Gerda Gemeinschaft')).toBeVisible();

  await page.goto(await verificationLink(browser, email));
  await page.getByRole('button', { name: ID.verifyButton }).click();
  await expect(page.getByRole('status')).toHaveText(ID.verifyDone);
  return email;
}

test('a German developer raises a ticket, posts in the forum, runs help, opens certificates and the Quick Start', async ({
  page,
  browser,
}) => {
  // The support page as a visitor sees it: the boxes and the contact form with its captcha.
  await page.goto('/de/support');
  await declineCookies(page);
  await expect(page.getByRole('heading', { level: 1, name: S.title })).toBeVisible();
  await expect(page.getByRole('link', { name: S.raiseTicket })).toHaveAttribute(
    'href',
    '/de/support/ticket/create',
  );
  const contact = page.getByRole('form', { name: S.contactTitle });
  await expect(contact.getByRole('button', { name: S.send })).toBeDisabled();
  await expect(contact.getByRole('checkbox', { name: 'Ich bin kein Roboter' })).toBeVisible();
  await expectNoViolations(page, 'the support page in German');

  await signUpInGerman(page, browser);

  // Support: the empty list, the form, the ticket with German dates, then the list.
  await page.goto('/de/support/ticket/all');
  await expect(page.getByRole('heading', { level: 1, name: S.ticketsTitle })).toBeVisible();
  await expect(page.getByText(S.noTickets)).toBeVisible();
  await expectNoViolations(page, 'the tickets in German');
  await page.getByRole('link', { name: S.createTicket }).click();
  await expect(page).toHaveURL(/\/de\/support\/ticket\/create$/);
  const form = page.getByRole('form', { name: S.createTitle });
  await form.getByRole('button', { name: S.submitTicket }).click();
  await expect(form.getByText(S.required, { exact: true })).toHaveCount(6);
  await expectNoViolations(page, 'the ticket form in German');
  const title = `Sandbox antwortet 502 ${Date.now()}`;
  await form.getByLabel(S.ticketTitle).fill(title);
  await form.getByLabel(S.contactInfo).fill('+49 30 1234567');
  await form.getByLabel(S.description).fill('Jeder Aufruf von POST /payments antwortet 502.');
  await form.getByLabel(S.environmentLabel).selectOption('Test');
  await form.getByLabel(S.severityLabel).selectOption('High');
  await form.getByLabel(S.details).fill('Request-Id 7f3c, seit 08:10 Uhr.');
  await form.getByRole('button', { name: S.submitTicket }).click();
  await expect(page).toHaveURL(/\/de\/support\/ticket\/\d+\?created=true$/);
  await expect(page.getByText(S.created)).toBeVisible();
  await expect(page.getByText(`${S.reportedBy.replace('{{name}}', 'Gerda Gemeinschaft')} · `)).toContainText(
    GERMAN_DATE,
  );
  await expect(page.getByRole('button', { name: S.markClosed })).toBeVisible();
  await expectNoViolations(page, 'a ticket in German');
  await page.goto('/de/support/ticket/all');
  await expect(page.getByRole('columnheader', { name: S.ticketName })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: title })).toContainText('OPEN');

  // Forum: a topic in 'Getting started', then a comment on it.
  await page.goto('/de/forum');
  await expect(page.getByRole('heading', { level: 1, name: F.title })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: F.topics })).toBeVisible();
  await expectNoViolations(page, 'the forums in German');
  await page.getByTestId('forum-table').getByRole('link', { name: 'Getting started', exact: true }).click();
  await page.getByRole('link', { name: F.createTopic }).click();
  await expect(page.getByRole('heading', { level: 1, name: F.createTitle })).toBeVisible();
  await expect(page.getByText(F.duplicateNote)).toBeVisible();
  await page.getByRole('main').getByRole('button', { name: F.submitTopic, exact: true }).click();
  await expect(page.getByText(F.required, { exact: true })).toHaveCount(2);
  await expectNoViolations(page, 'a new topic in German');
  const subject = `Webhook kommt doppelt ${Date.now()}`;
  await page.getByLabel(F.subjectLabel).fill(subject);
  await page.getByRole('textbox', { name: F.bodyLabel }).click();
  await page.keyboard.type('Unser Webhook wird zweimal zugestellt.');
  await page.getByRole('main').getByRole('button', { name: F.submitTopic, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible({ timeout: 20_000 });
  const topicId = new URL(page.url()).pathname.split('/').pop()!;
  await expect(page.getByText(F.byAuthor.replace('{{name}}', 'Gerda Gemeinschaft')).first()).toContainText(
    GERMAN_DATE,
  );
  await expect(page.getByText(F.noComments)).toBeVisible();
  await expectNoViolations(page, 'a topic in German');
  await page.getByRole('textbox', { name: F.comment }).click();
  await page.keyboard.type('Antwort innerhalb von 3 Sekunden hilft.');
  await page.getByRole('main').getByRole('button', { name: F.saveComment, exact: true }).click();
  await expect(page.getByText(F.commentSaved)).toBeVisible();
  await expect(page.getByTestId('comment')).toHaveCount(1);

  // The terminal: its welcome and `help` in German.
  await page.goto('/de/');
  await expect(page.getByTestId('terminal-launcher')).toBeVisible();
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('t');
  const { window: terminalWindow, screen } = terminal(page);
  await expect(terminalWindow).toBeVisible();
  await expect(screen).toContainText(T.welcome);
  await enter(page, 'help');
  await expect(screen).toContainText(T.helpHeader);
  await expect(screen).toContainText(T.help.ls);
  await enter(page, 'nichts');
  await expect(screen).toContainText(T.commandNotFound);
  await expectNoViolations(page, 'the terminal in German');
  await page.getByRole('button', { name: T.close }).click();
  await expect(terminalWindow).toBeHidden();

  // The sandbox certificates of the developer's own organization.
  const organization = await createOrganization(page, `Zertifikate GmbH ${Date.now()}`);
  await page.goto(`/de/organization/${organization}/certificates`);
  await expect(page.getByRole('heading', { level: 1, name: C.title })).toBeVisible();
  await expect(page.getByTestId('sandbox-ca-warning')).toHaveText(C.caWarning);
  await expect(page.getByText(C.listEmpty)).toBeVisible();
  await expect(page.getByText(C.caValidUntil.replace('{{date}}', ''))).toContainText(GERMAN_DATE);
  await expect(page.getByRole('button', { name: C.caDownload })).toBeVisible();
  await expectNoViolations(page, 'the sandbox certificates in German');

  // The Quick Start.
  await page.goto('/de/');
  await page.getByTestId('quickstart-button').click();
  const sidebar = page.getByTestId('quickstart-sidebar');
  await expect(sidebar).toBeVisible();
  await expect(sidebar.getByRole('heading', { name: de.quickstart.title })).toBeVisible();
  await expect(page.getByTestId('quickstart-progress')).toHaveText(/^\d+ % abgeschlossen$/);
  await expect(sidebar.getByRole('button', { name: de.quickstart.start }).first()).toBeVisible();
  await expectNoViolations(page, 'the Quick Start in German');
  await sidebar.getByRole('button', { name: de.quickstart.close }).click();

  // Leave the forum as found: the demo administrator deletes the topic (a moderator may).
  const context = await browser.newContext({ locale: 'en-GB' }); // the demo admin signs in on English pages
  try {
    const admin = await context.newPage();
    await signIn(admin, demoAdmin.email, demoAdmin.password);
    const csrf = await (await admin.request.get('/session/token')).text();
    const removed = await admin.request.delete(`/jsonapi/node/forum/${topicId}`, {
      headers: { 'x-csrf-token': csrf },
    });
    expect(removed.status()).toBe(204);
  } finally {
    await context.close();
  }
});
