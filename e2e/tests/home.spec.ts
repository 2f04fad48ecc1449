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

test('the carousel slides are 21.5% of (window width - 50) wide and move one step per slide', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  const slides = page.getByTestId('carousel-slide');
  await expect(slides).toHaveCount(3);
  const step = 0.215 * (1280 - 50);
  const box = async (i: number) => (await slides.nth(i).boundingBox())!;
  // A slide's place in the strip's window (the strip moves, its window does not).
  const left = async (i: number) =>
    Math.round((await box(i)).x - (await page.getByTestId('carousel-strip').boundingBox())!.x);
  expect((await box(0)).width).toBeCloseTo(step, 1);
  expect(await left(0)).toBe(0);
  expect(await left(1)).toBe(Math.round(step));
  await page.getByRole('button', { name: en.home.nextSlide }).click();
  // After the 0.5 s transition the current slide (the counter says which: the carousel may also
  // have advanced by itself) is where the first one was, and the first one that many steps left.
  const counter = page.getByText(/^\d \/ 3$/);
  const current = async () => Number((await counter.textContent())?.split('/')[0]) - 1;
  await expect.poll(async () => (await current()) > 0 && (await left(await current())) === 0).toBe(true);
  expect(await left(0)).toBe(Math.round(-(await current()) * step));

  // It follows the window's width.
  await page.setViewportSize({ width: 1000, height: 800 });
  await expect.poll(async () => Math.round((await box(0)).width * 100) / 100).toBeCloseTo(0.215 * 950, 1);
});
