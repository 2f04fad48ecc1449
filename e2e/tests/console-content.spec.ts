import type { Page } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import { expectNoViolations } from '../support/axe.ts';
import { signIn } from '../support/session.ts';
import { expect, test } from '../support/traffic.ts';

/**
 * The console's articles (issue 27): a content editor schedules an article that a visitor reads
 * and finds in search once its time has come; a support agent may not edit content.
 */
const M = en.console.content;
// Demo accounts of content/users.yaml (README 'Demo accounts').
const editorAccount = { email: 'content.editor@portico.local', password: 'ContentEditor#2026' };
const agentAccount = { email: 'support.agent@portico.local', password: 'SupportAgent#2026' };

test.describe.configure({ timeout: 90_000 });

async function declineCookies(page: Page): Promise<void> {
  await page
    .getByRole('dialog', { name: en.cookies.settingsTitle })
    .getByRole('button', { name: en.cookies.decline })
    .click();
}

/** A datetime-local value `seconds` from now, in the browser's time zone. */
async function localInputIn(page: Page, seconds: number): Promise<string> {
  return page.evaluate((s) => {
    const d = new Date(Date.now() + s * 1000);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  }, seconds);
}

test('a content editor schedules an article; a visitor reads it and finds it in search once it is published', async ({
  page,
  browser,
}) => {
  const stamp = Date.now();
  const title = `Scheduled narwhal ${stamp}`;
  const slug = `/blog/scheduled-narwhal-${stamp}`;
  await signIn(page, editorAccount.email, editorAccount.password);
  await declineCookies(page);
  await page.goto('/admin');
  await page
    .getByRole('navigation', { name: en.console.navLabel })
    .getByRole('link', { name: en.console.nav.content })
    .click();
  await expect(page).toHaveURL(/\/admin\/content$/);
  await expect(page.getByRole('heading', { level: 1, name: M.articles.title })).toBeVisible();
  await expect(page.getByTestId('console-articles')).toBeVisible();
  await expectNoViolations(page, '/admin/content');

  await page.getByRole('link', { name: M.articles.newArticle }).click();
  await expect(page.getByRole('heading', { level: 1, name: M.editor.createTitle })).toBeVisible();
  await page.getByRole('textbox', { name: M.editor.titleLabel, exact: true }).fill(title);
  await page.getByRole('textbox', { name: M.editor.pathLabel, exact: true }).fill(slug);
  await page.getByLabel(M.editor.summaryLabel).fill('Narwhals swim into the Payments API.');
  await page
    .getByLabel(M.editor.bodyLabel)
    .fill(`## Narwhal news\n\nThe **narwhal-${stamp}** feature is here.`);
  await page.getByRole('tab', { name: M.editor.preview }).click();
  await expect(
    page.getByTestId('article-preview').getByRole('heading', { name: 'Narwhal news' }),
  ).toBeVisible();
  await page.getByRole('tab', { name: M.editor.write }).click();
  await page.getByRole('radio', { name: M.articles.states.scheduled }).check();
  await page.getByLabel(M.editor.publishAtLabel).fill(await localInputIn(page, 20));
  await expectNoViolations(page, '/admin/content/articles/new');
  await page.getByRole('button', { name: M.editor.save }).click();
  await expect(
    page.getByRole('status').filter({ hasText: M.editor.saved.replace('{{version}}', '1') }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/content\/articles\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('article-revisions')).toContainText(
    M.revisions.version.replace('{{version}}', '1'),
  );

  // A visitor: not there yet, then on the blog and in the search once the time has come.
  const visitorContext = await browser.newContext();
  try {
    const visitor = await visitorContext.newPage();
    const searchHits = async () => {
      const res = await visitor.request.get(`/phpsdk/search?q=${encodeURIComponent(`narwhal-${stamp}`)}`);
      const doc = (await res.json()) as { data: { link: string }[] };
      return doc.data.map((d) => d.link);
    };
    expect(await searchHits()).toEqual([]);
    const early = await visitor.request.get(
      `/jsonapi/node/article?filter[path.alias]=${encodeURIComponent(slug)}`,
    );
    expect(((await early.json()) as { data: unknown[] }).data).toEqual([]);
    await expectNoViolations(page, '/admin/content/articles/:id');
    await expect
      .poll(
        async () => {
          const res = await visitor.request.get(
            `/jsonapi/node/article?filter[path.alias]=${encodeURIComponent(slug)}`,
          );
          return ((await res.json()) as { data: unknown[] }).data.length;
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    expect(await searchHits()).toEqual([slug]);
    await visitor.goto(slug);
    await declineCookies(visitor);
    await expect(visitor.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(visitor.getByRole('heading', { name: 'Narwhal news' })).toBeVisible();
    await visitor.goto(`/search?q=${encodeURIComponent(`narwhal-${stamp}`)}`);
    await expect(visitor.getByRole('main').getByRole('link', { name: title }).first()).toBeVisible();
  } finally {
    await visitorContext.close();
  }

  // The console shows it published, with the scheduler's revision.
  await page.goto('/admin/content');
  await page.getByLabel(M.articles.searchLabel).fill(`narwhal ${stamp}`);
  const row = page.getByTestId('console-articles').getByRole('row').filter({ hasText: title });
  await expect(row).toContainText(M.articles.states.published);

  // The editor deletes it (the blog's other tests count the demo articles): gone from the blog.
  await row.getByRole('link', { name: title }).click();
  page.once('dialog', (dialog) => {
    expect(dialog.message()).toBe(M.editor.deleteConfirm);
    void dialog.accept();
  });
  await page.getByRole('button', { name: M.editor.delete }).click();
  await expect(page).toHaveURL(/\/admin\/content$/);
  await expect(page.getByTestId('console-articles').getByRole('row').filter({ hasText: title })).toHaveCount(
    0,
  );
  const gone = await page.request.get(`/jsonapi/node/article?filter[path.alias]=${encodeURIComponent(slug)}`);
  expect(((await gone.json()) as { data: unknown[] }).data).toEqual([]);
});

test('a support agent is refused the content console, and the server refuses a save too', async ({
  page,
}) => {
  await signIn(page, agentAccount.email, agentAccount.password);
  await declineCookies(page);
  await page.goto('/admin/content');
  const refused = page.getByTestId('console-refused');
  await expect(refused).toBeVisible();
  await expect(refused).toContainText(en.errors.unauthorized);
  await expect(page.getByRole('button', { name: M.editor.save })).toHaveCount(0);
  await page.goto('/admin/content/articles/new');
  await expect(page.getByTestId('console-refused')).toBeVisible();
  await expect(page.getByRole('button', { name: M.editor.save })).toHaveCount(0);
  await expectNoViolations(page, '/admin/content (refused)');

  // The server: 403, nothing created.
  const token = await (await page.request.get('/session/token')).text();
  const res = await page.request.post('/admin-api/content/articles', {
    headers: { 'content-type': 'application/json', 'x-csrf-token': token },
    data: { title: 'Agent article' },
  });
  expect(res.status()).toBe(403);
  expect(((await res.json()) as { errors: { title: string }[] }).errors[0]?.title).toBe(M.forbidden);
  const list = await page.request.get('/admin-api/content/articles');
  expect(list.status()).toBe(403);
});

test('two editors save the same article: the second sees the other change and overwrites deliberately; a revision is restored', async ({
  page,
  context,
}) => {
  const stamp = Date.now();
  const title = `Conflict ibis ${stamp}`;
  await signIn(page, editorAccount.email, editorAccount.password);
  await declineCookies(page);
  await page.goto('/admin/content/articles/new');
  await page.getByRole('textbox', { name: M.editor.titleLabel, exact: true }).fill(title);
  await page.getByLabel(M.editor.bodyLabel).fill('The first text.');
  await page.getByRole('button', { name: M.editor.save }).click();
  await expect(page).toHaveURL(/\/admin\/content\/articles\/[0-9a-f-]{36}$/);
  const address = page.url();

  // A second tab opens version 1 and saves first.
  const other = await context.newPage();
  await other.goto(address);
  await other.getByLabel(M.editor.bodyLabel).fill('Their text.');
  await other.getByRole('button', { name: M.editor.save }).click();
  await expect(
    other.getByRole('status').filter({ hasText: M.editor.saved.replace('{{version}}', '2') }),
  ).toBeVisible();

  // The first tab, still at version 1: refused, shown what differs, nothing overwritten.
  await page.getByLabel(M.editor.bodyLabel).fill('My text.');
  await page.getByRole('button', { name: M.editor.save }).click();
  const conflict = page.getByTestId('article-conflict');
  await expect(conflict).toContainText(M.editor.conflictTitle);
  // The body is compared by lines: mine removed, theirs added.
  await expect(conflict.locator('ins')).toHaveText('Their text.');
  await expect(conflict.locator('del')).toHaveText('My text.');
  await expectNoViolations(page, '/admin/content/articles/:id (conflict)');
  await conflict.getByRole('button', { name: M.editor.overwrite }).click();
  await expect(
    page.getByRole('status').filter({ hasText: M.editor.saved.replace('{{version}}', '3') }),
  ).toBeVisible();
  await expect(conflict).toHaveCount(0);

  // Revisions: version 2 compared with the current one, then restored as version 4.
  const revisions = page.getByTestId('article-revisions');
  await expect(revisions).toContainText(M.revisions.version.replace('{{version}}', '3'));
  const second = revisions
    .locator('div')
    .filter({ hasText: M.revisions.version.replace('{{version}}', '2') })
    .last();
  await second.getByRole('button', { name: M.revisions.show }).click();
  await expect(second.locator('ins')).toHaveText('My text.');
  await expect(second.locator('del')).toHaveText('Their text.');
  await second.getByRole('button', { name: M.revisions.restore }).click();
  await expect(page.getByLabel(M.editor.bodyLabel)).toHaveValue('Their text.');
  await expect(revisions).toContainText(M.revisions.version.replace('{{version}}', '4'));
});

test('a content editor adds a news category, moves it, renames it in its form and sees each revision', async ({
  page,
}) => {
  const stamp = Date.now();
  const name = `Narwhal news ${stamp}`;
  const renamed = `Narwhal stories ${stamp}`;
  const N = M.newsCategories;
  const E = M.categoryEditor;
  const countLine = (version: number) =>
    `${N.articles.replace('{{count}}', '0')} · ${N.version.replace('{{version}}', String(version))}`;

  await signIn(page, editorAccount.email, editorAccount.password);
  await declineCookies(page);
  await page.goto('/admin/content');
  await page
    .getByRole('navigation', { name: M.tabs.label })
    .getByRole('link', { name: M.tabs.categories })
    .click();
  await expect(page).toHaveURL(/\/admin\/content\/categories$/);
  await expect(page.getByRole('heading', { level: 1, name: N.title })).toBeVisible();
  const list = page.getByTestId('news-categories');
  await expect(list).toContainText('Product news');

  // A new category comes last; moved up and back down, each move is a new version.
  await page.getByLabel(N.nameLabel).fill(name);
  await page.getByRole('button', { name: N.add }).click();
  await expect(
    page.getByRole('status').filter({ hasText: N.created.replace('{{name}}', name) }),
  ).toBeVisible();
  const item = list.getByRole('listitem').filter({ hasText: name });
  await expect(item).toContainText(countLine(1));
  await expectNoViolations(page, '/admin/content/categories');
  await item.getByRole('button', { name: N.moveUp.replace('{{name}}', name) }).click();
  await expect(item).toContainText(countLine(2));
  await item.getByRole('button', { name: N.moveDown.replace('{{name}}', name) }).click();
  await expect(item).toContainText(countLine(3));

  // Its form: renamed, a revision of every save and move.
  await item.getByRole('link', { name: N.editLabel.replace('{{name}}', name) }).click();
  await expect(page).toHaveURL(/\/admin\/content\/categories\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: E.newsTitle })).toBeVisible();
  const form = page.getByRole('form', { name: E.formLabel });
  await form.getByRole('textbox', { name: E.nameLabel }).fill(renamed);
  await form.getByRole('button', { name: E.save }).click();
  await expect(
    page.getByRole('status').filter({ hasText: E.saved.replace('{{version}}', '4') }),
  ).toBeVisible();
  const revisions = page.getByTestId('category-revisions');
  for (const v of [4, 3, 2, 1])
    await expect(revisions).toContainText(M.revisions.version.replace('{{version}}', String(v)));
  await expectNoViolations(page, '/admin/content/categories/:id');

  // Deleted from its form: the blog's categories are as they were.
  page.once('dialog', (dialog) => {
    expect(dialog.message()).toBe(E.deleteConfirm);
    void dialog.accept();
  });
  await page.getByRole('button', { name: E.delete }).click();
  await expect(page).toHaveURL(/\/admin\/content\/categories$/);
  await expect(page.getByTestId('news-categories')).not.toContainText('Narwhal');
});
