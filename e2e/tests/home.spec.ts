import { expect, test } from '@playwright/test';

test('the home page shows the hero and the site title', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/Developers Portal/);
  await expect(page.getByText('CONNECT ON A GLOBAL SCALE')).toBeVisible();
});
