import type { Page } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import { expectNoViolations } from '../support/axe.ts';
import { consoleNav } from '../support/console.ts';
import { signIn } from '../support/session.ts';
import { expect, test } from '../support/traffic.ts';

/**
 * The console's Quick Start stories (issue 27): a content editor creates a story with two steps
 * (ordered with the keyboard), saves it, edits it, finds it in the list, and deletes it again (the
 * demo stories stay as they were for the other specs).
 */
const M = en.console.quickstart;
// A demo account of content/users.yaml (README 'Demo accounts').
const editorAccount = { email: 'content.editor@portico.local', password: 'ContentEditor#2026' };

test.describe.configure({ timeout: 90_000 });

async function declineCookies(page: Page): Promise<void> {
  await page
    .getByRole('dialog', { name: en.cookies.settingsTitle })
    .getByRole('button', { name: en.cookies.decline })
    .click();
}

const saved = (page: Page, version: number) =>
  page.getByRole('status').filter({ hasText: M.editor.saved.replace('{{version}}', String(version)) });

test('a content editor creates a Quick Start story, orders its steps with the keyboard, edits it, finds it in the list and deletes it', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const stamp = Date.now();
  const title = `Pelican tour ${stamp}`;
  await signIn(page, editorAccount.email, editorAccount.password);
  await declineCookies(page);
  await page.goto('/admin');
  await consoleNav(page).getByRole('link', { name: en.console.nav.quickstart }).click();
  await expect(page).toHaveURL(/\/admin\/content\/quickstart$/);
  await expect(page.getByRole('heading', { level: 1, name: M.list.title })).toBeVisible();
  // The demo stories are listed.
  await expect(page.getByTestId('console-stories')).toContainText('Make your first API call');
  await expectNoViolations(page, '/admin/content/quickstart');

  await page.getByRole('link', { name: M.list.newStory }).click();
  await expect(page.getByRole('heading', { level: 1, name: M.editor.createTitle })).toBeVisible();
  await page.getByRole('textbox', { name: M.editor.titleLabel, exact: true }).fill(title);
  await page.getByRole('textbox', { name: M.editor.weightLabel }).fill('90');
  const anonymous = page.getByRole('switch', { name: M.editor.anonymousLabel });
  await expect(anonymous).toBeChecked();
  await anonymous.uncheck();

  // A new story starts with one step; a second one gets the focus when added.
  const steps = page.getByTestId('story-steps');
  const step = (n: number) => steps.getByRole('group', { name: M.editor.step.replace('{{n}}', String(n)) });
  await step(1).getByRole('textbox', { name: M.editor.targetLabel }).fill('#main');
  await step(1).getByRole('textbox', { name: M.editor.contentLabel }).fill(`Pelicans ${stamp} come second.`);
  await step(1).getByRole('textbox', { name: M.editor.navigationUrlLabel }).fill('/apis');
  await page.getByRole('button', { name: M.editor.addStep }).click();
  await expect(step(2).getByRole('textbox', { name: M.editor.targetLabel })).toBeFocused();
  // A blank step points at the page as a whole.
  await expect(step(2).getByRole('textbox', { name: M.editor.targetLabel })).toHaveValue('body');
  await step(2).getByRole('textbox', { name: M.editor.contentLabel }).fill(`Welcome, pelican ${stamp}.`);
  await step(2).getByRole('textbox', { name: M.editor.navigationUrlLabel }).fill('/');
  await step(2).getByRole('checkbox', { name: M.editor.spotlightClicksLabel }).check();

  // Step 2 moves up with the keyboard; the focus follows it to its new place.
  const moveUp = step(2).getByRole('button', { name: M.editor.moveUp.replace('{{n}}', '2') });
  await moveUp.focus();
  await page.keyboard.press('Enter');
  await expect(step(1).getByRole('textbox', { name: M.editor.contentLabel })).toHaveValue(
    `Welcome, pelican ${stamp}.`,
  );
  await expect(step(1).getByRole('button', { name: M.editor.moveDown.replace('{{n}}', '1') })).toBeFocused();
  const preview = page.getByTestId('story-preview').getByRole('listitem');
  await expect(preview).toHaveCount(2);
  await expect(preview.nth(0)).toContainText(`Welcome, pelican ${stamp}.`);
  await expect(preview.nth(1)).toContainText(`Pelicans ${stamp} come second.`);
  await expect(preview.nth(1)).toContainText(M.editor.previewPage.replace('{{page}}', '/apis'));
  await expectNoViolations(page, '/admin/content/quickstart/new');

  await page.getByRole('button', { name: M.editor.save }).click();
  await expect(saved(page, 1)).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/content\/quickstart\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('story-revisions')).toContainText(
    en.console.content.revisions.version.replace('{{version}}', '1'),
  );
  await expect(page.getByRole('switch', { name: M.editor.anonymousLabel })).not.toBeChecked();
  await expect(step(1).getByRole('textbox', { name: M.editor.targetLabel })).toHaveValue('body');
  await expectNoViolations(page, '/admin/content/quickstart/:id');

  // Edited: a new title, published, the first step removed (the focus goes to the one left).
  await page.getByRole('textbox', { name: M.editor.titleLabel, exact: true }).fill(`${title} (edited)`);
  await page.getByRole('radio', { name: M.list.states.published }).check();
  // Unsaved: the form says so, and leaving it through a link asks first (declined: it stays).
  await expect(page.getByTestId('story-unsaved')).toHaveText(en.console.content.editor.unsaved);
  page.once('dialog', (dialog) => {
    expect(dialog.message()).toBe(en.console.content.editor.leaveConfirm);
    void dialog.dismiss();
  });
  await page.getByRole('link', { name: M.editor.back }).click();
  await expect(page).toHaveURL(/\/admin\/content\/quickstart\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('textbox', { name: M.editor.titleLabel, exact: true })).toHaveValue(
    `${title} (edited)`,
  );
  await step(1)
    .getByRole('button', { name: M.editor.removeStep.replace('{{n}}', '1') })
    .click();
  await expect(step(1).getByRole('textbox', { name: M.editor.targetLabel })).toBeFocused();
  await expect(steps.getByRole('group')).toHaveCount(1);
  await page.getByRole('button', { name: M.editor.save }).click();
  await expect(saved(page, 2)).toBeVisible();
  await expect(page.getByTestId('story-unsaved')).toHaveCount(0);
  await expect(page.getByTestId('story-revisions')).toContainText(
    en.console.content.revisions.version.replace('{{version}}', '2'),
  );

  // In the list, found by its title, published with one step.
  await page.getByRole('link', { name: M.editor.back }).click();
  await expect(page).toHaveURL(/\/admin\/content\/quickstart$/);
  await page.getByLabel(M.list.searchLabel).fill(`Pelican tour ${stamp}`);
  const row = page
    .getByTestId('console-stories')
    .getByRole('row')
    .filter({ hasText: `${title} (edited)` });
  await expect(row).toContainText(M.list.states.published);
  await expect(row.getByRole('cell').nth(2)).toHaveText('1');

  // Deleted: gone from the list.
  await row.getByRole('link', { name: `${title} (edited)` }).click();
  page.once('dialog', (dialog) => {
    expect(dialog.message()).toBe(M.editor.deleteConfirm);
    void dialog.accept();
  });
  await page.getByRole('button', { name: M.editor.delete }).click();
  await expect(page).toHaveURL(/\/admin\/content\/quickstart$/);
  await expect(page.getByTestId('console-stories')).not.toContainText(title);
});
