import { expect, test } from '@playwright/test';
import { en } from '@portico/contracts/messages';

test('an unknown path shows the 404 page with its status-code marker', async ({ page }) => {
  // The server answers 404 too where no page exists, so that crawlers and monitors see it.
  const response = await page.goto('/no-such-page-here');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: en.errors.notFoundTitle })).toBeVisible();
  await expect(page.getByText(en.errors.notFoundText)).toBeVisible();
  await expect(page.locator('meta[name="status-code"]')).toHaveAttribute('content', '404');

  expect((await page.goto('/404'))?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: en.errors.notFoundTitle })).toBeVisible();
  // A page of the web app and a basic page exist.
  expect((await page.goto('/apiProducts'))?.status()).toBe(200);
  expect((await page.goto('/privacy'))?.status()).toBe(200);
});

test('/news goes to /blog and the /partner prefix is stripped', async ({ page }) => {
  await page.goto('/partner/cookie-settings');
  await expect(page).toHaveURL(/\/cookie-settings$/);
  await page.goto('/news');
  await expect(page).toHaveURL(/\/blog$/);
});

test('the footer comes from the block layout and the newsletter stores a sign-up', async ({ page }) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: en.footer.privacy, exact: true })).toBeVisible();
  await expect(footer.getByText(en.site.copyright)).toBeVisible();

  const form = page.getByRole('form', { name: en.newsletter.title });
  await form.getByLabel(en.newsletter.email).fill('not-an-address');
  await form.getByRole('button', { name: en.newsletter.subscribe }).click();
  await expect(form.getByText(en.newsletter.invalidEmail)).toBeVisible();
  await form.getByLabel(en.newsletter.email).fill(`news-${Date.now()}@example.com`);
  await form.getByRole('button', { name: en.newsletter.subscribe }).click();
  await expect(form.getByText(en.newsletter.success)).toBeVisible();
});

test('Internet Explorer gets the browser-not-supported page', async ({ browser }) => {
  const context = await browser.newContext({
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko',
  });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { name: en.errors.browserNotSupported })).toBeVisible();
  await context.close();
});

test('/oauth2/redoc-callback hands code and state to the window that opened it', async ({ page }) => {
  await page.goto('/cookie-settings');
  const received = await page.evaluate(
    () =>
      new Promise((resolve) => {
        window.addEventListener('message', (e: MessageEvent) => resolve(e.data), { once: true });
        window.open('/oauth2/redoc-callback?code=abc123&state=s1', 'authorize', 'width=600,height=640');
      }),
  );
  expect(received).toEqual({ type: 'portico:redoc-callback', code: 'abc123', error: null, state: 's1' });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the burger opens the main menu in a drawer; a link navigates and closes it; Escape returns the focus', async ({
    page,
  }) => {
    await page.goto('/');
    const burger = page.getByRole('button', { name: en.menu.openMenu });
    await expect(burger).toBeVisible();
    await burger.click();
    const drawer = page.getByRole('dialog', { name: en.site.title });
    await expect(drawer).toBeVisible();
    const menu = drawer.getByRole('navigation', { name: en.menu.mainMenu });
    await expect(menu.getByRole('link', { name: en.menu.blog })).toBeVisible();
    await expect(menu.getByRole('link', { name: en.menu.faqs })).toBeVisible();
    // Signed-out visitors do not see the signed-in entries.
    await expect(menu.getByRole('link', { name: en.menu.apps })).toHaveCount(0);

    await menu.getByRole('link', { name: en.menu.faqs }).click();
    await expect(page).toHaveURL(/\/faq-page$/);
    await expect(drawer).toBeHidden();

    await burger.click();
    await expect(drawer).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(burger).toBeFocused();
  });
});
