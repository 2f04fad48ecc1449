import type { Page } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import { signUp } from '../support/applications.ts';
import { signIn, signInAtProvider } from '../support/session.ts';
import { expectSpotlightOn, nextStep, tourTooltip } from '../support/tour.ts';
import { expectNoViolations } from '../support/axe.ts';
import { expect, test } from '../support/traffic.ts';
import deShell from '../../apps/web/src/locales/de/shell.json' with { type: 'json' };
import deTryout from '../../apps/web/src/locales/de/tryout.json' with { type: 'json' };

/** The Quick Start tour (issue 15, spec B 2.14, 2.15, 4, 9). Stories: content/quickstart/stories.yaml. */
const M = en.quickstart;
const FIRST = 'Make your first API call';
const SECOND = 'Create your organization and first application';
const THIRD = 'Subscribe to an API and go live';

test.use({ viewport: { width: 1280, height: 900 } });

const sidebar = (page: Page) => page.getByTestId('quickstart-sidebar');
const story = (page: Page, title: string) =>
  sidebar(page).getByTestId('quickstart-story').filter({ hasText: title });

/** Runs the open tour to its end with the tooltip's primary button, checking each step's text. */
async function finishTour(page: Page, texts: string[]) {
  for (const text of texts) await nextStep(page, text);
}

test('an anonymous visitor: restricted stories disabled with the tooltip, the first call made in the tour, a finished story kept locally through a sign-in and sign-out', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/');
  await page.getByTestId('quickstart-button').click();
  await expect(sidebar(page)).toBeVisible();
  // 25% of the width.
  expect(Math.round((await sidebar(page).boundingBox())!.width)).toBe(320);
  await expect(page.getByTestId('quickstart-progress')).toHaveText('0% completed');
  await expect(story(page, FIRST).getByRole('button', { name: M.start })).toBeEnabled();
  const disabled = story(page, SECOND).getByRole('button', { name: M.start });
  await expect(disabled).toHaveAttribute('aria-disabled', 'true');
  await disabled.hover();
  await expect(page.getByText(M.disabledTooltip)).toBeVisible();

  await story(page, FIRST).getByRole('button', { name: M.start }).click();
  // While it runs the sidebar is docked left, 335 px.
  await expect(sidebar(page)).toHaveAttribute('data-dock', 'left');
  expect(Math.round((await sidebar(page).boundingBox())!.width)).toBe(335);
  await finishTour(page, [
    'Welcome to the Northbank developer portal',
    'Each API product bundles the APIs',
    'The documentation lists every operation',
  ]);
  // The try-out step opens GET /accounts and highlights its Try it out button, which stays clickable.
  await expect(tourTooltip(page, 'Press Try it out to open the try-out console')).toBeVisible({
    timeout: 15_000,
  });
  await expect(page).toHaveURL(/\/documentation\/accounts-v1#operation\/listAccounts$/);
  const tryIt = page.locator('[data-operation="listAccounts"] [data-tour="try-out"]');
  await expectSpotlightOn(page, tryIt);
  await tryIt.click();
  // Opening the console moves the tour on to its Send button.
  await expect(tourTooltip(page, 'Press Send to make your first call')).toBeVisible({ timeout: 15_000 });
  const panel = page.getByTestId('tryout-panel');
  const send = panel.locator('[data-tour="tryout-send"]');
  await expectSpotlightOn(page, send);
  await send.click();
  await expect(panel.getByTestId('tryout-response')).toHaveAttribute('data-state', 'failure');
  await expect(tourTooltip(page, "Here is the sandbox's answer")).toBeVisible({ timeout: 15_000 });
  // The call is in the history with the 'tour' badge.
  const items = panel.getByTestId('tryout-history-item');
  await expect(items).toHaveCount(1);
  await expect(items.first().getByText(en.tryout.badgeTour, { exact: true })).toBeVisible();
  await nextStep(page, "Here is the sandbox's answer");

  await expect(story(page, FIRST).getByText(M.completed)).toBeVisible();
  await expect(page.getByTestId('quickstart-progress')).toHaveText('33% completed');
  await page.reload();
  await page.getByTestId('quickstart-button').click();
  await expect(story(page, FIRST).getByText(M.completed)).toBeVisible();
  await expect(page.getByTestId('quickstart-progress')).toHaveText('33% completed');

  // Signing in and out (which resets the session's state) keeps what the visitor did anonymously.
  await signIn(page);
  await page.getByRole('button', { name: en.user.signOut }).click();
  await expect(page.getByRole('link', { name: en.user.login, exact: true })).toBeVisible();
  await page.getByTestId('quickstart-button').click();
  await expect(story(page, FIRST).getByText(M.completed)).toBeVisible();
  await expect(page.getByTestId('quickstart-progress')).toHaveText('33% completed');
});

test('cancelling hides the Quick Start button; #quickstart enables it again', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('quickstart-button').click();
  await sidebar(page).getByRole('button', { name: M.cancelTour }).click();
  await expect(sidebar(page)).toHaveCount(0);
  await expect(page.getByTestId('quickstart-button')).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('quickstart-button')).toHaveCount(0);
  await page.goto('/#quickstart');
  await expect(sidebar(page)).toBeVisible();
  await sidebar(page).getByRole('button', { name: M.close }).click();
  await expect(page.getByTestId('quickstart-button')).toBeVisible();
});

test('a signed-in user: the enabling rules, and a completed story survives a reload and a new sign-in', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = await signUp(page, 'Quinn', 'Quickstart');
  await page.getByTestId('quickstart-button').click();
  // Progress counts the stories open to signed-in users (spec B 4): 1 of 3.
  await expect(page.getByTestId('quickstart-progress')).toHaveText('33% completed');
  await expect(story(page, FIRST).getByRole('button', { name: M.start })).toBeEnabled();
  await expect(story(page, SECOND).getByRole('button', { name: M.start })).toBeEnabled();
  await expect(story(page, THIRD).getByRole('button', { name: M.start })).toHaveAttribute(
    'aria-disabled',
    'true',
  );

  // Docked at the bottom, 20% of the height.
  await sidebar(page).getByRole('button', { name: M.dockBottom }).click();
  await story(page, SECOND).getByRole('button', { name: M.start }).click();
  await expect(sidebar(page)).toHaveAttribute('data-dock', 'bottom');
  expect(Math.round((await sidebar(page).boundingBox())!.height)).toBe(180);
  await finishTour(page, [
    'Applications belong to organizations',
    'Give the organization your company or team name',
    'Choose the organization the new application belongs to',
    'Your application gets development credentials at once',
  ]);
  await expect(story(page, SECOND).getByText(M.completed)).toBeVisible();
  await expect(page.getByTestId('quickstart-progress')).toHaveText('67% completed');
  await expect(story(page, THIRD).getByRole('button', { name: M.start })).toBeEnabled();

  await page.reload();
  await page.getByTestId('quickstart-button').click();
  await expect(story(page, SECOND).getByText(M.completed)).toBeVisible();

  // Signed out and in again: the server kept it.
  await page.getByRole('button', { name: en.quickstart.close }).click();
  await page.getByRole('button', { name: en.user.signOut }).click();
  // Nothing kept in the browser either: what shows next comes from the server.
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.getByRole('link', { name: en.user.login, exact: true }).click();
  await signInAtProvider(page, email, 'Secret#Passw0rd');
  await expect(page.getByText(/^Welcome /)).toBeVisible();
  await page.getByTestId('quickstart-button').click();
  await expect(story(page, SECOND).getByText(M.completed)).toBeVisible();
  await expect(page.getByTestId('quickstart-progress')).toHaveText('67% completed');
});

test('Take the tour on a documentation with tour data; axe with the sidebar and the tour open', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto('/documentation/accounts-v1');
  await page.getByRole('button', { name: M.takeTheTour }).click();
  const tooltip = page
    .getByRole('alertdialog')
    .or(page.getByRole('dialog'))
    .filter({ hasText: 'Download the OpenAPI document' });
  await expect(tooltip).toBeVisible({ timeout: 15_000 });
  await tooltip.locator('[data-action="skip"]').click();
  await expect(tooltip).toHaveCount(0);

  await page.goto('/');
  await page.getByTestId('quickstart-button').click();
  await story(page, FIRST).getByRole('button', { name: M.start }).click();
  await expect(page.getByText('Welcome to the Northbank developer portal')).toBeVisible({ timeout: 15_000 });
  await expectNoViolations(page, 'the first Quick Start step');
});

test('the first story in German: its steps in German on German pages, its buttons and its progress', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const D = deShell.quickstart;
  const FIRST_DE = 'Ihr erster API-Aufruf';
  const germanStory = (title: string) =>
    sidebar(page).getByTestId('quickstart-story').filter({ hasText: title });
  await page.goto('/de/');
  await page.getByTestId('quickstart-button').click();
  await expect(sidebar(page).getByRole('heading', { name: D.title })).toBeVisible();
  await expect(page.getByTestId('quickstart-progress')).toHaveText('0 % abgeschlossen');
  await germanStory(FIRST_DE).getByRole('button', { name: D.start }).click();

  // Each step's German text (content/quickstart/stories.yaml), with the tooltip's German buttons.
  const welcome = tourTooltip(page, 'Willkommen im Entwicklerportal der Northbank');
  await expect(welcome).toBeVisible({ timeout: 15_000 });
  await expect(welcome.locator('[data-action="primary"]')).toHaveText(new RegExp(`^${D.next}`));
  await expectNoViolations(page, 'the first Quick Start step in German');
  await nextStep(page, 'Willkommen im Entwicklerportal der Northbank');
  // The tour's pages are the German ones.
  await expect(page).toHaveURL(/\/de\/apiProduct\/accounts-api-v1$/);
  await nextStep(page, 'Jedes API-Produkt bündelt die APIs');
  await expect(page).toHaveURL(/\/de\/documentation\/accounts-v1$/);
  await nextStep(page, 'Die Dokumentation listet jede Operation der API');
  await expect(tourTooltip(page, 'Das ist GET /accounts')).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/de\/documentation\/accounts-v1#operation\/listAccounts$/);
  const tryIt = page.locator('[data-operation="listAccounts"] [data-tour="try-out"]');
  await expectSpotlightOn(page, tryIt);
  await tryIt.click();
  await expect(tourTooltip(page, 'Die Konsole füllt die Parameter aus')).toBeVisible({ timeout: 15_000 });
  const panel = page.getByTestId('tryout-panel');
  await panel.locator('[data-tour="tryout-send"]').click();
  await expect(panel.getByTestId('tryout-response')).toHaveAttribute('data-state', 'failure');
  const answer = tourTooltip(page, 'Hier ist die Antwort der Sandbox');
  await expect(answer).toBeVisible({ timeout: 15_000 });
  await expect(answer.locator('[data-action="primary"]')).toHaveText(new RegExp(`^${D.last}`));
  await expect(
    panel.getByTestId('tryout-history-item').first().getByText(deTryout.tryout.badgeTour, { exact: true }),
  ).toBeVisible();
  await nextStep(page, 'Hier ist die Antwort der Sandbox');

  await expect(germanStory(FIRST_DE).getByText(D.completed)).toBeVisible();
  await expect(page.getByTestId('quickstart-progress')).toHaveText('33 % abgeschlossen');
});
