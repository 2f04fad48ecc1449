import { expect, test } from '@playwright/test';
import { en } from '@portico/contracts/messages';

// The pages of content/pages: the footer's legal links and the cookie popup's privacy link.

test("the footer's Privacy policy link shows the privacy page", async ({ page }) => {
  await page.goto('/');
  // Answer the cookie popup first: it floats over the footer.
  await page
    .getByRole('dialog', { name: en.cookies.settingsTitle })
    .getByRole('button', { name: en.cookies.decline })
    .click();
  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy policy', exact: true }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Cookies' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'Analytics cookies' })).toBeVisible();
  await expect(page).toHaveTitle(`Privacy policy | ${en.site.title}`);

  await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of use', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Terms of use' })).toBeVisible();
});

test("the cookie popup's link opens the same page at /page/privacy", async ({ page }) => {
  await page.goto('/');
  await page
    .getByRole('dialog', { name: en.cookies.settingsTitle })
    .getByRole('link', { name: en.cookies.privacyLink })
    .click();
  await expect(page).toHaveURL(/\/page\/privacy$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Who is responsible' })).toBeVisible();
});

test('an unknown path still shows the 404 page', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: en.errors.notFoundTitle })).toBeVisible();
  await expect(page.locator('meta[name="status-code"]')).toHaveAttribute('content', '404');
});
