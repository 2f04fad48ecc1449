import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { FORUM_COMMENT_TYPE, FORUM_TOPIC_TYPE } from '@portico/contracts/forum';
import { en } from '@portico/contracts/messages';
import { signUp } from '../support/applications.ts';
import { demoAdmin, signIn } from '../support/session.ts';
import { expectNoViolations } from '../support/axe.ts';
import { expect, test, trackTraffic } from '../support/traffic.ts';

/**
 * Forums (spec B 2.13; issue 14): a topic created, commented, replied to with a quote, paged past
 * 10 comments, searched, subscribed with the notification e-mail in the outbox, and a comment
 * hidden by a moderator gone from another user's view; axe on every forum screen.
 */
const M = en.forum;

test.describe.configure({ mode: 'serial' });

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  trackTraffic(context);
  return context.newPage();
}

async function postComment(request: APIRequestContext, topic: string, text: string): Promise<void> {
  const token = await (await request.get('/session/token')).text();
  const res = await request.post('/jsonapi/comment/comment_forum', {
    headers: { 'X-CSRF-Token': token, 'Content-Type': 'application/vnd.api+json' },
    data: JSON.stringify({
      data: {
        type: FORUM_COMMENT_TYPE,
        attributes: {
          subject: text,
          entity_type: 'node',
          field_name: 'comment_forum',
          comment_body: { value: `<p>${text}</p>`, format: 'basic_html' },
        },
        relationships: { entity_id: { data: { type: FORUM_TOPIC_TYPE, id: topic } } },
      },
    }),
  });
  expect(res.status(), await res.text()).toBe(201);
}

const title = `Webhook retries for refunds ${Date.now()}`;
let topicUrl = '';
let author: Page;
let other: Page;
let authorEmail = '';

test('anyone browses the forums: containers, sub-forums, counts, n/a and No Results', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/forum');
  await expect(page.getByRole('heading', { level: 1, name: M.title })).toBeVisible();
  const forums = page.getByTestId('forum-table');
  await expect(forums.getByRole('link', { name: 'Announcements' })).toBeVisible();
  // The container lists its sub-forums.
  const apis = forums.getByRole('row').filter({ has: page.getByRole('link', { name: 'APIs', exact: true }) });
  await expect(apis.getByRole('link', { name: 'Payments API' })).toBeVisible();
  // No create button at the virtual root, nor in a container.
  await expect(page.getByRole('link', { name: M.createTopic })).toHaveCount(0);
  await apis.getByRole('link', { name: 'APIs', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'APIs' })).toBeVisible();
  await expect(page.getByRole('link', { name: M.createTopic })).toHaveCount(0);
  const corporate = page.getByRole('row').filter({ hasText: 'Corporate Banking API' });
  await expect(corporate.getByText(M.noLastPost, { exact: true })).toBeVisible();
  // Filter by forum.
  await page.getByLabel(M.filterByForum).selectOption({ label: '\u2014 Payments API' });
  await expect(page.getByRole('heading', { level: 1, name: 'Payments API' })).toBeVisible();
  await expect(
    page.getByRole('link', { name: 'SEPA Instant payment stays in ACSP for more than 10 seconds' }),
  ).toBeVisible();
  // Keyword search.
  await page.getByLabel(M.searchLabel).fill('no such topic anywhere');
  await page.getByRole('main').getByRole('button', { name: M.searchButton, exact: true }).click();
  await expect(page.getByText(M.noResults, { exact: true })).toBeVisible();
  // The sidebar lists.
  await page.getByRole('link', { name: M.unansweredTopics }).click();
  await expect(page.getByRole('heading', { level: 1, name: M.unansweredTopics })).toBeVisible();
  await expect(
    page.getByRole('link', { name: 'Can a standing order be created without an end date?' }),
  ).toBeVisible();
  await page.getByRole('link', { name: M.popularTopics }).click();
  await expect(page.getByRole('heading', { level: 1, name: M.popularTopics })).toBeVisible();
  // Anonymous visitors read topics but get no comment form.
  await page
    .getByRole('link', { name: 'SEPA Instant payment stays in ACSP for more than 10 seconds' })
    .click();
  await expect(page.getByTestId('comment')).toHaveCount(4);
  await expect(page.getByRole('link', { name: M.loginToComment })).toBeVisible();
  await expect(page.getByRole('main').getByRole('button', { name: M.subscribe, exact: true })).toHaveCount(0);
});

test('a developer creates a topic and subscribes to it', async ({ browser }) => {
  test.setTimeout(60_000);
  author = await newPage(browser);
  authorEmail = await signUp(author, 'Fiona', 'Forum');
  await author.goto('/forum');
  await author.getByTestId('forum-table').getByRole('link', { name: 'Getting started', exact: true }).click();
  await author.getByRole('link', { name: M.createTopic }).click();
  await expect(author.getByRole('heading', { level: 1, name: M.createTitle })).toBeVisible();
  await expect(author.getByText(M.duplicateNote)).toBeVisible();
  await expect(author.getByRole('link', { name: M.backToForum })).toBeVisible();
  // Both fields are required.
  await author.getByRole('main').getByRole('button', { name: M.submitTopic, exact: true }).click();
  await expect(author.getByText(M.required, { exact: true })).toHaveCount(2);
  await author.getByLabel(M.subjectLabel).fill(title);
  await author.getByRole('textbox', { name: M.bodyLabel }).click();
  await author.keyboard.type('Our refund webhook is delivered twice when we answer after 5 seconds.');
  await author.getByRole('main').getByRole('button', { name: M.submitTopic, exact: true }).click();
  await expect(author.getByRole('heading', { level: 1, name: title })).toBeVisible({ timeout: 20_000 });
  await expect(author.getByTestId('topic-body')).toContainText('delivered twice');
  topicUrl = new URL(author.url()).pathname;
  await author.getByRole('main').getByRole('button', { name: M.subscribe, exact: true }).click();
  await expect(
    author.getByRole('main').getByRole('button', { name: M.unsubscribe, exact: true }),
  ).toBeVisible();
});

test('another developer comments; the author replies with a quote; the editor is cleared', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  other = await newPage(browser);
  await signUp(other, 'Ben', 'Reply');
  await other.goto(topicUrl);
  await other.getByRole('textbox', { name: M.comment }).click();
  await other.keyboard.type('Answer within 3 seconds and queue the work: the retry stops.');
  await other.getByRole('main').getByRole('button', { name: M.saveComment, exact: true }).click();
  await expect(other.getByText(M.commentSaved)).toBeVisible();
  await expect(other.getByTestId('comment')).toHaveCount(1);
  await expect(other.getByRole('textbox', { name: M.comment })).toHaveText('');

  await author.reload();
  const first = author.getByTestId('comment').first();
  await expect(first).toContainText('Answer within 3 seconds');
  await first.getByRole('button', { name: new RegExp(`^${M.reply}`) }).click();
  await expect(author.getByTestId('replying-to')).toHaveText(M.replyingTo.replace('{{name}}', 'Ben Reply'));
  const editor = author.getByRole('textbox', { name: M.comment });
  await expect(editor.locator('blockquote')).toContainText('Ben Reply wrote:');
  await expect(editor.locator('blockquote')).toContainText('Answer within 3 seconds');
  await editor.press('ControlOrMeta+End');
  await author.keyboard.type('Thanks, that fixed it.');
  await author.getByRole('main').getByRole('button', { name: M.saveComment, exact: true }).click();
  await expect(author.getByTestId('comment')).toHaveCount(2);
  const reply = author.getByTestId('comment').nth(1);
  await expect(reply).toContainText(M.inReplyTo.replace('{{name}}', 'Ben Reply'));
  await expect(reply.locator('blockquote')).toContainText('Answer within 3 seconds');
  await expect(editor).toHaveText('');
  await expect(author.getByTestId('replying-to')).toHaveCount(0);
});

test('comments page past 10 and are searched; the subscriber gets the e-mail', async ({ browser }) => {
  test.setTimeout(60_000);
  for (let i = 3; i <= 12; i++)
    await postComment(other.request, topicUrl.split('/').pop()!, `Log line number ${i}`);
  await author.reload();
  await expect(author.getByTestId('comment')).toHaveCount(10);
  await author.getByRole('main').getByRole('button', { name: '2', exact: true }).click();
  await expect(author.getByTestId('comment')).toHaveCount(2);
  await expect(author.getByTestId('comment').last()).toContainText('Log line number 12');

  await author.getByLabel(M.searchComments).fill('number 7');
  await author.getByRole('main').getByRole('button', { name: M.searchButton, exact: true }).click();
  await expect(author.getByTestId('comment')).toHaveCount(1);
  await expect(author.getByTestId('comment')).toContainText('Log line number 7');

  // The topic is found by the forum's keyword search too.
  await author.goto('/forum');
  await author.getByLabel(M.searchLabel).fill(title);
  await author.getByRole('main').getByRole('button', { name: M.searchButton, exact: true }).click();
  await expect(author.getByRole('link', { name: title })).toBeVisible();

  const admin = await newPage(browser);
  await signIn(admin, demoAdmin.email, demoAdmin.password);
  await admin.goto('/admin/outbox');
  const subject = M.mail.newCommentSubject.replace('{{title}}', title);
  await expect(
    admin.getByRole('row').filter({ hasText: authorEmail }).filter({ hasText: subject }).first(),
  ).toBeVisible();
  await admin.close();
});

test('a moderator hides a comment: it is gone from the other users’ view', async ({ browser }) => {
  test.setTimeout(60_000);
  const admin = await newPage(browser);
  await signIn(admin, demoAdmin.email, demoAdmin.password);
  await admin.goto(topicUrl);
  const first = admin.getByTestId('comment').first();
  await expect(first).toContainText('Answer within 3 seconds');
  await first.getByRole('button', { name: new RegExp(`^${M.hide}:`) }).click();
  await expect(admin.getByTestId('comment').first()).toContainText(M.hiddenNotice);

  await other.reload();
  await expect(other.getByRole('heading', { level: 1, name: title })).toBeVisible();
  // Before: the comment and the quote of it in the author's reply; now only the quote is left.
  await expect(other.getByTestId('comment').filter({ hasText: 'Answer within 3 seconds' })).toHaveCount(1);
  await expect(other.getByRole('button', { name: new RegExp(`^${M.hide}:`) })).toHaveCount(0);
  await admin.close();
});

test('the forum screens have no accessibility violations', async ({ page }) => {
  test.setTimeout(150_000);
  const screens: [string, string][] = [
    ['/forum', M.title],
    ['/forum/new', M.newestTopics],
    [topicUrl, title],
  ];
  for (const [path, heading] of screens) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expectNoViolations(page, path);
  }
  for (const [path, heading] of [
    [topicUrl, title],
    ['/forum', M.title],
  ] as const) {
    await author.goto(path);
    await expect(author.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expectNoViolations(author, `${path} (signed in)`);
  }
  await author.getByTestId('forum-table').getByRole('link', { name: 'Getting started', exact: true }).click();
  await expect(author.getByRole('heading', { level: 1, name: 'Getting started' })).toBeVisible();
  await expectNoViolations(author, 'a forum (signed in)');
  await author.getByRole('link', { name: M.createTopic }).click();
  await expect(author.getByRole('heading', { level: 1, name: M.createTitle })).toBeVisible();
  await expectNoViolations(author, 'create topic');
});
