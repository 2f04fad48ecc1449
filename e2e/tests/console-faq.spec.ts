import type { Page } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import { expectNoViolations } from '../support/axe.ts';
import { signIn } from '../support/session.ts';
import { expect, test } from '../support/traffic.ts';

/**
 * The console's FAQ (issue 27): a content editor adds a category and a question in it, publishes
 * the question; a visitor sees it on /faq-page and finds it in the site search; the editor then
 * deletes both (the demo FAQ stays as it was).
 */
const M = en.console.content;
// Demo account of content/users.yaml (README 'Demo accounts').
const editorAccount = { email: 'content.editor@portico.local', password: 'ContentEditor#2026' };

test.describe.configure({ timeout: 90_000 });

async function declineCookies(page: Page): Promise<void> {
  await page
    .getByRole('dialog', { name: en.cookies.settingsTitle })
    .getByRole('button', { name: en.cookies.decline })
    .click();
}

test('a content editor creates and publishes a FAQ question in a new category; a visitor sees it and finds it in search', async ({
  page,
  browser,
}) => {
  const stamp = Date.now();
  const categoryName = `Quetzal questions ${stamp}`;
  const question = `Can a quetzal ${stamp} call the API?`;
  const word = `quetzal-${stamp}`;

  await signIn(page, editorAccount.email, editorAccount.password);
  await declineCookies(page);
  await page.goto('/admin');
  await page
    .getByRole('navigation', { name: en.console.navLabel })
    .getByRole('link', { name: en.console.nav.content })
    .click();
  await expect(page).toHaveURL(/\/admin\/content$/);
  await page.getByRole('navigation', { name: M.tabs.label }).getByRole('link', { name: M.tabs.faq }).click();
  await expect(page).toHaveURL(/\/admin\/content\/faq$/);
  await expect(page.getByRole('heading', { level: 1, name: M.faq.title })).toBeVisible();
  await expect(page.getByTestId('console-faqs')).toBeVisible();

  // A new category, last in the list.
  await page.getByLabel(M.faqCategories.nameLabel).fill(categoryName);
  await page.getByRole('button', { name: M.faqCategories.add }).click();
  await expect(
    page.getByRole('status').filter({ hasText: M.faqCategories.created.replace('{{name}}', categoryName) }),
  ).toBeVisible();
  await expect(page.getByTestId('faq-categories')).toContainText(categoryName);
  await expectNoViolations(page, '/admin/content/faq');

  // A question in it, saved as a draft first.
  await page.getByRole('link', { name: M.faq.newQuestion }).click();
  await expect(page.getByRole('heading', { level: 1, name: M.faqEditor.createTitle })).toBeVisible();
  await page.getByRole('textbox', { name: M.faqEditor.questionLabel, exact: true }).fill(question);
  await page
    .getByLabel(M.faqEditor.answerLabel)
    .fill(`## Quetzal answer\n\nYes: the **${word}** flies through the sandbox.`);
  await page.getByRole('tab', { name: M.editor.preview }).click();
  await expect(
    page.getByTestId('faq-preview').getByRole('heading', { name: 'Quetzal answer' }),
  ).toBeVisible();
  await page.getByRole('tab', { name: M.editor.write }).click();
  await page.getByRole('combobox', { name: M.faqEditor.categoryLabel, exact: true }).click();
  await page.getByRole('option', { name: categoryName }).click();
  await expectNoViolations(page, '/admin/content/faq/new');
  await page.getByRole('button', { name: M.faqEditor.save }).click();
  await expect(
    page.getByRole('status').filter({ hasText: M.faqEditor.saved.replace('{{version}}', '1') }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/content\/faq\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('faq-revisions')).toContainText(
    M.revisions.version.replace('{{version}}', '1'),
  );

  const visitorContext = await browser.newContext();
  try {
    const visitor = await visitorContext.newPage();
    const searchTitles = async () => {
      const res = await visitor.request.get(`/phpsdk/search?q=${encodeURIComponent(word)}`);
      return ((await res.json()) as { data: { title: string }[] }).data.map((d) => d.title);
    };
    // A draft: on no public page, not in the search.
    expect(await searchTitles()).toEqual([]);

    await page.getByRole('radio', { name: M.faq.states.published }).check();
    await page.getByRole('button', { name: M.faqEditor.save }).click();
    await expect(
      page.getByRole('status').filter({ hasText: M.faqEditor.saved.replace('{{version}}', '2') }),
    ).toBeVisible();
    await expect(page.getByTestId('faq-revisions')).toContainText(
      M.revisions.version.replace('{{version}}', '2'),
    );
    await expectNoViolations(page, '/admin/content/faq/:id');

    // Published: on the FAQ page in its category, and in the site search, at once.
    expect(await searchTitles()).toEqual([question]);
    await visitor.goto('/faq-page');
    await declineCookies(visitor);
    const section = visitor.getByTestId('faq-section').filter({ hasText: categoryName });
    await expect(section.getByRole('heading', { name: categoryName })).toBeVisible();
    await section.getByRole('button', { name: question }).click();
    await expect(section.getByRole('heading', { name: 'Quetzal answer' })).toBeVisible();
    await visitor.goto(`/search?q=${encodeURIComponent(word)}`);
    await expect(visitor.getByRole('main').getByRole('link', { name: question }).first()).toBeVisible();
  } finally {
    await visitorContext.close();
  }

  // The editor deletes the question, then its category: the demo FAQ is as it was.
  page.once('dialog', (dialog) => {
    expect(dialog.message()).toBe(M.faqEditor.deleteConfirm);
    void dialog.accept();
  });
  await page.getByRole('button', { name: M.faqEditor.delete }).click();
  await expect(page).toHaveURL(/\/admin\/content\/faq$/);
  const categories = page.getByTestId('faq-categories');
  await expect(categories).toContainText(categoryName);
  page.once('dialog', (dialog) => {
    expect(dialog.message()).toBe(M.faqCategories.deleteConfirm.replace('{{name}}', categoryName));
    void dialog.accept();
  });
  await categories
    .getByRole('button', { name: M.faqCategories.deleteLabel.replace('{{name}}', categoryName) })
    .click();
  await expect(page.getByRole('status').filter({ hasText: M.faqCategories.deleted })).toBeVisible();
  await expect(categories).not.toContainText(categoryName);
  const left = await page.request.get(`/phpsdk/search?q=${encodeURIComponent(word)}`);
  expect(((await left.json()) as { data: unknown[] }).data).toEqual([]);
});

test('two editors save the same FAQ question: the second sees the difference and overwrites; a revision is restored', async ({
  page,
  context,
}) => {
  const question = `Conflicting toucan ${Date.now()}?`;
  await signIn(page, editorAccount.email, editorAccount.password);
  await declineCookies(page);
  await page.goto('/admin/content/faq/new');
  await page.getByRole('textbox', { name: M.faqEditor.questionLabel, exact: true }).fill(question);
  await page.getByLabel(M.faqEditor.answerLabel).fill('The first answer.');
  await page.getByRole('button', { name: M.faqEditor.save }).click();
  await expect(page).toHaveURL(/\/admin\/content\/faq\/[0-9a-f-]{36}$/);
  const address = page.url();

  // A second tab opens version 1 and saves first.
  const other = await context.newPage();
  await other.goto(address);
  await other.getByLabel(M.faqEditor.answerLabel).fill('Their answer.');
  await other.getByRole('button', { name: M.faqEditor.save }).click();
  await expect(
    other.getByRole('status').filter({ hasText: M.faqEditor.saved.replace('{{version}}', '2') }),
  ).toBeVisible();

  // The first tab, still at version 1: refused and shown what differs.
  await page.getByLabel(M.faqEditor.answerLabel).fill('My answer.');
  await page.getByRole('button', { name: M.faqEditor.save }).click();
  const conflict = page.getByTestId('faq-conflict');
  await expect(conflict).toContainText(M.faqEditor.conflictTitle);
  await expect(conflict).toContainText(M.faqFields.answer);
  await expect(conflict.locator('ins')).toHaveText('Their answer.');
  await expect(conflict.locator('del')).toHaveText('My answer.');
  await expectNoViolations(page, '/admin/content/faq/:id (conflict)');
  await conflict.getByRole('button', { name: M.editor.overwrite }).click();
  await expect(
    page.getByRole('status').filter({ hasText: M.faqEditor.saved.replace('{{version}}', '3') }),
  ).toBeVisible();
  await expect(conflict).toHaveCount(0);

  // Version 2 restored as version 4.
  const revisions = page.getByTestId('faq-revisions');
  await expect(revisions).toContainText(M.revisions.version.replace('{{version}}', '3'));
  const second = revisions
    .locator('div')
    .filter({ hasText: M.revisions.version.replace('{{version}}', '2') })
    .last();
  await second.getByRole('button', { name: M.revisions.restore }).click();
  await expect(page.getByLabel(M.faqEditor.answerLabel)).toHaveValue('Their answer.');
  await expect(revisions).toContainText(M.revisions.version.replace('{{version}}', '4'));

  // Deleted again: the demo FAQ stays as it was.
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: M.faqEditor.delete }).click();
  await expect(page).toHaveURL(/\/admin\/content\/faq$/);
  await page.getByLabel(M.faq.searchLabel).fill('Conflicting toucan');
  await expect(page.getByText(M.faq.empty)).toBeVisible();
});

test('a content editor renames a FAQ category in its own form, sees its revisions and restores the first', async ({
  page,
}) => {
  const stamp = Date.now();
  const name = `Tapir questions ${stamp}`;
  const renamed = `Renamed tapirs ${stamp}`;
  const E = M.categoryEditor;

  await signIn(page, editorAccount.email, editorAccount.password);
  await declineCookies(page);
  await page.goto('/admin/content/faq');
  await page.getByLabel(M.faqCategories.nameLabel).fill(name);
  await page.getByRole('button', { name: M.faqCategories.add }).click();
  await expect(
    page.getByRole('status').filter({ hasText: M.faqCategories.created.replace('{{name}}', name) }),
  ).toBeVisible();

  // Its own form, at version 1 with one revision.
  await page
    .getByTestId('faq-categories')
    .getByRole('link', { name: M.faqCategories.editLabel.replace('{{name}}', name) })
    .click();
  await expect(page).toHaveURL(/\/admin\/content\/faq\/categories\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: E.faqTitle })).toBeVisible();
  const form = page.getByRole('form', { name: E.formLabel });
  const nameField = form.getByRole('textbox', { name: E.nameLabel });
  await expect(nameField).toHaveValue(name);
  const revisions = page.getByTestId('category-revisions');
  await expect(revisions).toContainText(M.revisions.version.replace('{{version}}', '1'));

  // Renamed: a new version and a revision of it.
  await nameField.fill(renamed);
  await expect(page.getByTestId('category-unsaved')).toHaveText(M.editor.unsaved);
  await form.getByRole('button', { name: E.save }).click();
  await expect(
    page.getByRole('status').filter({ hasText: E.saved.replace('{{version}}', '2') }),
  ).toBeVisible();
  await expect(revisions).toContainText(M.revisions.version.replace('{{version}}', '2'));
  await expect(page.getByTestId('category-version')).toHaveText(
    M.revisions.version.replace('{{version}}', '2'),
  );

  // The first revision compared with the current version: the name's words removed and added.
  await revisions.getByRole('button', { name: M.revisions.show }).click();
  await expect(revisions.locator('del')).toHaveText(['Tapir', 'questions']);
  await expect(revisions.locator('ins')).toHaveText(['Renamed', 'tapirs']);
  await expectNoViolations(page, '/admin/content/faq/categories/:id');

  // Restored: the first name again, as version 3.
  await revisions.getByRole('button', { name: M.revisions.restore }).click();
  await expect(page.getByTestId('category-version')).toHaveText(
    M.revisions.version.replace('{{version}}', '3'),
  );
  await expect(
    page.getByRole('form', { name: E.formLabel }).getByRole('textbox', { name: E.nameLabel }),
  ).toHaveValue(name);
  await expect(page.getByTestId('category-revisions')).toContainText(
    M.revisions.version.replace('{{version}}', '3'),
  );

  // Deleted from its form: the demo FAQ is as it was.
  page.once('dialog', (dialog) => {
    expect(dialog.message()).toBe(E.deleteConfirm);
    void dialog.accept();
  });
  await page.getByRole('button', { name: E.delete }).click();
  await expect(page).toHaveURL(/\/admin\/content\/faq$/);
  await expect(page.getByTestId('faq-categories')).not.toContainText(name);
});
