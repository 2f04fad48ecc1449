import type { Page } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import { expectNoViolations } from '../support/axe.ts';
import { consoleNav } from '../support/console.ts';
import { signIn } from '../support/session.ts';
import { expect, test } from '../support/traffic.ts';

/**
 * The console's basic pages (issue 27): a content editor creates and publishes a page at a new
 * address, which a visitor opens and finds in the search at once; a second, stale save of the page
 * is told what changed meanwhile; the editor deletes the page again (the demo content stays as it
 * was for the other specs).
 */
const M = en.console.pages;
// A demo account of content/users.yaml (README 'Demo accounts').
const editorAccount = { email: 'content.editor@portico.local', password: 'ContentEditor#2026' };

test.describe.configure({ timeout: 90_000 });

async function declineCookies(page: Page): Promise<void> {
  await page
    .getByRole('dialog', { name: en.cookies.settingsTitle })
    .getByRole('button', { name: en.cookies.decline })
    .click();
}

test('a content editor publishes a new page that a visitor opens and finds; a stale save is told of the conflict', async ({
  page,
  context,
  browser,
}) => {
  const stamp = Date.now();
  const title = `Walrus charter ${stamp}`;
  const address = `/legal/walrus-charter-${stamp}`;
  const word = `walrus${stamp}`;
  await signIn(page, editorAccount.email, editorAccount.password);
  await declineCookies(page);
  await page.goto('/admin');
  await consoleNav(page).getByRole('link', { name: en.console.nav.content }).click();
  await expect(page).toHaveURL(/\/admin\/content$/);
  await page
    .getByRole('navigation', { name: M.tabs.label })
    .getByRole('link', { name: M.tabs.pages })
    .click();
  await expect(page).toHaveURL(/\/admin\/content\/pages$/);
  await expect(page.getByRole('heading', { level: 1, name: M.list.title })).toBeVisible();
  // The seeded pages are listed.
  await expect(page.getByTestId('console-pages')).toContainText('/privacy');
  await expectNoViolations(page, '/admin/content/pages');

  await page.getByRole('link', { name: M.list.newPage }).click();
  await expect(page.getByRole('heading', { level: 1, name: M.editor.createTitle })).toBeVisible();
  await page.getByRole('textbox', { name: M.editor.titleLabel, exact: true }).fill(title);
  await page.getByRole('textbox', { name: M.editor.pathLabel, exact: true }).fill(address);
  await page.getByLabel(M.editor.bodyLabel).fill(`## Walrus rules\n\nThe **${word}** charter applies.`);
  await page.getByRole('tab', { name: M.editor.preview }).click();
  await expect(page.getByTestId('page-preview').getByRole('heading', { name: 'Walrus rules' })).toBeVisible();
  await page.getByRole('tab', { name: M.editor.write }).click();
  await page.getByRole('radio', { name: M.list.states.published }).check();
  await expectNoViolations(page, '/admin/content/pages/new');
  await page.getByRole('button', { name: M.editor.save }).click();
  await expect(
    page.getByRole('status').filter({ hasText: M.editor.saved.replace('{{version}}', '1') }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/content\/pages\/[0-9a-f-]{36}$/);
  const editorAddress = page.url();
  await expect(page.getByTestId('page-revisions')).toContainText(
    en.console.content.revisions.version.replace('{{version}}', '1'),
  );
  await expectNoViolations(page, '/admin/content/pages/:id');

  const visitorContext = await browser.newContext();
  try {
    // A visitor opens it at once, and finds it in the search.
    const visitor = await visitorContext.newPage();
    await visitor.goto(address);
    await declineCookies(visitor);
    await expect(visitor.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(visitor.getByRole('heading', { name: 'Walrus rules' })).toBeVisible();
    await visitor.goto(`/search?q=${encodeURIComponent(word)}`);
    await expect(visitor.getByRole('main').getByRole('link', { name: title }).first()).toBeVisible();

    // A second tab opens version 1 and saves first; the visitor sees that text at once.
    const other = await context.newPage();
    await other.goto(editorAddress);
    await other.getByLabel(M.editor.bodyLabel).fill(`## Walrus rules\n\nTheir ${word} text.`);
    await other.getByRole('button', { name: M.editor.save }).click();
    await expect(
      other.getByRole('status').filter({ hasText: M.editor.saved.replace('{{version}}', '2') }),
    ).toBeVisible();
    await other.close();
    await visitor.goto(address);
    await expect(visitor.getByText(`Their ${word} text.`)).toBeVisible();

    // The first tab, still at version 1: refused and shown what differs; nothing overwritten.
    await page.getByLabel(M.editor.bodyLabel).fill(`## Walrus rules\n\nMy ${word} text.`);
    await page.getByRole('button', { name: M.editor.save }).click();
    const conflict = page.getByTestId('page-conflict');
    await expect(conflict).toContainText(M.editor.conflictTitle);
    await expect(conflict).toContainText(M.editor.conflictText.replace('{{version}}', '2'));
    await expect(conflict.locator('ins')).toHaveText(`Their ${word} text.`);
    await expect(conflict.locator('del')).toHaveText(`My ${word} text.`);
    await expectNoViolations(page, '/admin/content/pages/:id (conflict)');
    await conflict.getByRole('button', { name: en.console.content.editor.reload }).click();
    await expect(conflict).toHaveCount(0);
    await expect(page.getByLabel(M.editor.bodyLabel)).toHaveValue(`## Walrus rules\n\nTheir ${word} text.`);
    await visitor.reload();
    await expect(visitor.getByText(`Their ${word} text.`)).toBeVisible();

    // An article links to the page: the delete is refused, the article named with its console
    // address, and the page stays (an export would otherwise hold a link the import refuses).
    const csrf = await (await page.request.get('/session/token')).text();
    const created = await page.request.post('/admin-api/content/articles', {
      headers: { 'x-csrf-token': csrf },
      data: { title: `Walrus notes ${stamp}`, body: `Read [the charter](${address}).` },
    });
    expect(created.status()).toBe(201);
    const article = ((await created.json()) as { data: { id: string } }).data;
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: M.editor.delete }).click();
    await expect(page.getByRole('alert')).toHaveText(
      en.console.content.errors.linkedFrom
        .replace('{{targets}}', address)
        .replace(
          '{{items}}',
          en.console.content.errors.linkingArticle
            .replace('{{title}}', `Walrus notes ${stamp}`)
            .replace('{{address}}', `/admin/content/articles/${article.id}`),
        ),
    );
    // The pointer left on the Delete button would check its hover colours, not the screen's.
    await page.mouse.move(0, 0);
    await expectNoViolations(page, '/admin/content/pages/:id (delete refused)');
    await expect(page).toHaveURL(editorAddress);
    expect((await visitor.request.get(`${address}?_format=json`)).status()).toBe(200);
    const unlinked = await page.request.delete(`/admin-api/content/articles/${article.id}`, {
      headers: { 'x-csrf-token': csrf, 'if-match': '"1"' },
    });
    expect(unlinked.status()).toBe(204);

    // The editor deletes the page: gone for the visitor and from the list.
    page.once('dialog', (dialog) => {
      expect(dialog.message()).toBe(M.editor.deleteConfirm);
      void dialog.accept();
    });
    await page.getByRole('button', { name: M.editor.delete }).click();
    await expect(page).toHaveURL(/\/admin\/content\/pages$/);
    await expect(page.getByTestId('console-pages')).not.toContainText(title);
    const gone = await visitor.request.get(`${address}?_format=json`);
    expect(gone.status()).toBe(404);
    await visitor.goto(address);
    await expect(visitor.getByRole('heading', { name: en.errors.notFoundTitle })).toBeVisible();
  } finally {
    await visitorContext.close();
  }
});
