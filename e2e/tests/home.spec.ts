import { expect, test } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import { signIn } from '../support/session.ts';

test('the home page shows the hero and the site title', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/Developers Portal/);
  await expect(page.getByText('CONNECT ON A GLOBAL SCALE')).toBeVisible();
});

test('a signed-in developer sees the featured APIs and the START steps on the home page', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: en.home.featuredApis })).toHaveCount(0);
  await expect(page.getByRole('link', { name: en.home.register })).toBeVisible();
  await expect(page.getByText(en.home.internalLine)).toBeVisible();

  await signIn(page);
  const featured = page.getByRole('region', { name: en.home.featuredApis });
  await expect(featured).toBeVisible();
  await expect(featured.getByRole('heading', { name: 'Accounts API' })).toBeVisible();
  await expect(page.getByRole('region', { name: en.home.startTitle })).toBeVisible();
  await expect(page.getByRole('link', { name: en.home.register })).toHaveCount(0);

  await featured
    .getByRole('link', { name: /Accounts API/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/apiProduct\//);
  await expect(page.getByRole('heading', { name: 'Accounts API', level: 1 })).toBeVisible();
});
