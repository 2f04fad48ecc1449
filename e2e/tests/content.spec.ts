import fs from 'node:fs';
import { en } from '@portico/contracts/messages';
import { demoAdmin, signIn } from '../support/session.ts';
import { expectNoViolations } from '../support/axe.ts';
import { expect, test } from '../support/traffic.ts';

/** Public content (issue 13): blog, articles, FAQs, Getting Started, home, cloud documents. */

const c = en.content;

test('the blog lists articles five per page, searches, filters by category chips and says when nothing matches', async ({
  page,
}) => {
  await page.goto('/news');
  await expect(page).toHaveURL(/\/blog$/);
  await expect(page.getByRole('heading', { level: 1, name: c.blogTitle })).toBeVisible();
  const cards = page.getByTestId('article-card');
  await expect(cards).toHaveCount(5);
  await expect(cards.first().getByRole('heading')).toHaveText(
    'Instant payments are live in the Payments API',
  );
  await expect(cards.first()).toContainText('10-11-2026');
  await expect(page.getByText('Internal: the December release train')).toHaveCount(0);

  await page.getByRole('button', { name: 'Page 2' }).click();
  await expect(cards).toHaveCount(1);
  await expect(cards.first().getByRole('heading')).toHaveText('Five tips for testing in the sandbox');

  // A search goes back to the first page.
  await page.getByLabel(c.searchArticles).fill('oauth');
  await expect(cards).toHaveCount(1);
  await expect(cards.first().getByRole('heading')).toHaveText(
    'OAuth 2 in practice: client credentials or authorization code?',
  );
  await page.getByLabel(c.searchArticles).fill('no such words');
  await expect(page.getByTestId('no-articles')).toHaveText(c.noArticles);
  await page.getByLabel(c.searchArticles).fill('');
  await expect(cards).toHaveCount(5);

  // Categories: chips in the dropdown, an OR filter, each chip removable.
  const filter = page.getByRole('combobox', { name: c.categories });
  await filter.click();
  await page.getByRole('option', { name: 'Security' }).click();
  await expect(cards).toHaveCount(2);
  await filter.click();
  await page.getByRole('option', { name: 'Developer stories' }).click();
  await expect(cards).toHaveCount(4);
  await page.keyboard.press('Escape');
  // Each chip's remove button is a labelled button in the tab order, before the field.
  const remove = (name: string) =>
    page.getByRole('button', { name: c.removeCategory.replace('{{name}}', name) });
  await page.keyboard.press('Shift+Tab');
  await expect(remove('Developer stories')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(remove('Security')).toBeFocused();
  await expectNoViolations(page, '/blog with category chips');
  await page.keyboard.press('Enter');
  await expect(remove('Security')).toHaveCount(0);
  await expect(filter).toBeFocused();
  await expect(cards).toHaveCount(2);
  await expect(page.getByText('Five tips for testing in the sandbox')).toBeVisible();
  // And with the mouse.
  await page.keyboard.press('Escape');
  await remove('Developer stories').click();
  await expect(remove('Developer stories')).toHaveCount(0);
  await expect(cards).toHaveCount(5);
});

test('an article has its breadcrumb, hero, author, date, BACK TO BLOG, a scroll-spy table of contents and a PDF', async ({
  page,
}) => {
  await page.goto('/blog');
  await page
    .getByRole('link', { name: 'Getting ready for PSD3: a practical guide for API consumers' })
    .click();
  await expect(page).toHaveURL(/\/blog\/psd3-readiness$/);
  await expect(page.getByRole('heading', { level: 1, name: /Getting ready for PSD3/ })).toBeVisible();
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs.getByRole('link', { name: c.blogTitle })).toBeVisible();
  await expect(page.getByTestId('article-created')).toHaveText('28-10-2026');
  await expect(page.getByTestId('hero-image')).toBeVisible();
  await expect(page.getByText('Jonas Becker')).toBeVisible();

  const toc = page.getByTestId('toc');
  await expect(toc.getByText(c.tableOfContents)).toBeVisible();
  await expect(toc.getByRole('link', { name: 'Why PSD3 matters' })).toHaveAttribute(
    'aria-current',
    'location',
  );
  // At the bottom of the page the last heading is the active one.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(toc.getByRole('link', { name: 'Further reading' })).toHaveAttribute(
    'aria-current',
    'location',
  );
  // The window around the active item: from active-6 to active+12 (the first headings are gone).
  await expect(toc.getByRole('link', { name: 'Why PSD3 matters' })).toHaveCount(0);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: c.printPdf }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('psd3-readiness.pdf');
  const pdf = fs.readFileSync(await file.path());
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(pdf.toString('latin1')).toContain('Page 1 of');
  expect(pdf.toString('latin1')).toContain('/Subtype /Image');

  await page.getByRole('link', { name: c.backToBlog }).click();
  await expect(page).toHaveURL(/\/blog$/);
});

test('a failing hero image is hidden and a failing author picture falls back to the default', async ({
  page,
}) => {
  await page.route('**/blog-images/fx-rates.svg', (route) => route.abort());
  await page.goto('/blog/fx-rates-v2');
  await expect(
    page.getByRole('heading', { level: 1, name: 'FX Rates API v2 with streaming quotes' }),
  ).toBeVisible();
  await expect(page.getByTestId('hero-image')).toHaveCount(0);
  await expect(page.getByTestId('author-image')).toHaveAttribute('src', /^data:image\/svg\+xml/);
  await page.goto('/blog/no-such-article');
  await expect(page.getByRole('heading', { name: en.errors.notFoundTitle })).toBeVisible();
});

test('the internal blog is for the internal developers group only', async ({ page }) => {
  await page.goto('/blog/internal');
  await expect(page.getByText(en.errors.onlyMembers)).toBeVisible();
  await signIn(page, demoAdmin.email, demoAdmin.password);
  await page.goto('/blog/internal');
  await expect(page.getByRole('heading', { level: 1, name: c.internalBlogTitle })).toBeVisible();
  await expect(page.getByTestId('article-card')).toHaveCount(1);
  await expect(page.getByText('Internal: the December release train')).toBeVisible();
});

test('the FAQ page groups questions by category, uncategorised last, with an accordion and a search', async ({
  page,
}) => {
  await page.goto('/faq-page');
  await expect(page.getByRole('heading', { level: 1, name: c.faqTitle })).toBeVisible();
  await expect(page.getByTestId('faq-section').getByRole('heading')).toHaveText([
    'Getting access',
    'Security and authentication',
    c.otherQuestions,
  ]);
  const question = page.getByRole('button', { name: 'Is there a cost for using the sandbox?' });
  await question.click();
  await expect(page.getByText('The sandbox is free for every registered developer')).toBeVisible();
  await page.getByLabel(c.searchFaqs).fill('secret');
  await expect(page.getByRole('button', { name: /\?$/ })).toHaveText([
    'What do I do if my client secret leaks?',
  ]);
  await page.getByLabel(c.searchFaqs).fill('nothing like this');
  await expect(page.getByText(c.noFaqs)).toBeVisible();
  await expectNoViolations(page, '/faq-page');
});

test('Getting Started shows numbered blocks, the authorization block last and ALL DONE', async ({ page }) => {
  await page.goto('/started');
  await expect(page.getByRole('heading', { level: 1, name: c.startedTitle })).toBeVisible();
  const timeline = page.getByTestId('started-timeline');
  await expect(timeline.getByText('1', { exact: true })).toBeVisible();
  await expect(timeline.getByRole('heading', { name: /Create your developer account/ })).toBeVisible();
  await expect(page.getByTestId('authorization-block')).toContainText(
    'Every call carries an OAuth 2 access token',
  );
  await expect(page.getByText(c.allDone)).toBeVisible();
  await expectNoViolations(page, '/started');
});

test('home: carousel steps and auto-advances, promo banners; signed in, the latest posts with VIEW ALL BLOGS', async ({
  page,
}) => {
  await page.clock.install();
  await page.goto('/');
  const hero = page.getByRole('region', { name: en.home.hero });
  await expect(hero.getByText('Open Banking APIs')).toBeVisible();
  await page.clock.fastForward(7_100);
  await expect(hero.getByText('A sandbox that answers')).toBeVisible();
  await hero.getByRole('button', { name: en.home.previousSlide }).click();
  await expect(hero.getByText('Open Banking APIs')).toBeVisible();
  await hero.getByRole('button', { name: en.home.previousSlide }).click();
  await expect(hero.getByText('From sandbox to production')).toBeVisible(); // wraps around
  await expect(page.getByTestId('promo-banner')).toHaveCount(2);
  await expect(page.getByRole('heading', { name: en.home.latestPosts })).toHaveCount(0);
  await page.clock.resume();

  await signIn(page);
  const posts = page.getByRole('region', { name: en.home.latestPosts });
  await expect(posts.getByTestId('article-card')).toHaveCount(3);
  await expect(posts.getByRole('navigation')).toHaveCount(0);
  await posts.getByRole('link', { name: c.viewAllBlogs }).click();
  await expect(page).toHaveURL(/\/blog$/);
});

test('the cloud document viewer signs in with Google, shows the document, its PDF link and the first error', async ({
  page,
}) => {
  await page.goto('/google-doc/quarterly-report');
  await expect(page.getByText(c.cloudDocSignIn)).toBeVisible();
  const pdf = page.getByRole('link', { name: c.downloadPdf });
  await expect(pdf).toHaveAttribute('href', /\/document\/d\/quarterly-report\/export\?format=pdf$/);
  await page.getByRole('button', { name: c.authenticateWithGoogle }).click();
  await expect(page).toHaveURL(/\/google-doc\/quarterly-report$/);
  const content = page.getByTestId('cloud-doc-content');
  await expect(content.getByRole('heading', { name: 'Quarterly API report' })).toBeVisible();
  await expect(content).toContainText('Calls to the Payments API grew by 38% this quarter.');

  await page.goto('/google-doc/no-such-file');
  await expect(page.getByTestId('cloud-doc-error')).toHaveText('File not found: no-such-file.');
  await expectNoViolations(page, '/google-doc');

  // A basic page with a drive id shows its text and the document.
  await page.goto('/api-guidelines');
  await expect(page.getByRole('heading', { level: 1, name: 'API design guidelines' })).toBeVisible();
  await expect(page.getByTestId('cloud-doc-content')).toContainText('Use nouns for resources');
  await expect(page.getByRole('link', { name: c.downloadPdf })).toHaveAttribute(
    'href',
    /api-guidelines-2026/,
  );
});

test('the new public pages have no accessibility violations; the animation page is served', async ({
  page,
}) => {
  test.setTimeout(60_000);
  for (const [path, heading] of [
    ['/blog', c.blogTitle],
    ['/blog/psd3-readiness', 'Getting ready for PSD3: a practical guide for API consumers'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expectNoViolations(page, path);
  }
  const res = await page.goto('/animation/Hub-01.html');
  expect(res?.status()).toBe(200);
  await expect(page.getByRole('img', { name: /API hub/ })).toBeVisible();
});
