import en from '../../apps/web/src/locales/en/shell.json' with { type: 'json' };
import de from '../../apps/web/src/locales/de/shell.json' with { type: 'json' };
import deContent from '../../apps/web/src/locales/de/content.json' with { type: 'json' };
import { signUp } from '../support/applications.ts';
import { expectNoViolations } from '../support/axe.ts';
import { expect, test } from '../support/traffic.ts';

/**
 * The header's language switcher (issue 30): it keeps the page, the address carries the
 * language, a reload keeps it, search engines find every language's page (hreflang), and a
 * signed-in user's choice is kept on the account.
 */
test.describe.configure({ timeout: 120_000 });

test('the switcher turns the page German and back, and the choice holds', async ({ page, context }) => {
  await page.goto('/cookie-settings?from=test');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { name: en.cookies.settingsTitle })).toBeVisible();
  const switcher = page.getByRole('navigation', { name: en.language.label });
  await expect(switcher.getByRole('link', { name: 'English' })).toHaveAttribute('aria-current', 'true');
  // Every language's address of this page, for search engines.
  const alternates = page.locator('head link[rel="alternate"][hreflang]');
  await expect(alternates).toHaveCount(3);
  const href = async (lng: string) => {
    const url = new URL((await page.locator(`head link[hreflang="${lng}"]`).getAttribute('href'))!);
    return url.pathname + url.search;
  };
  expect(await href('en')).toBe('/cookie-settings?from=test');
  expect(await href('de')).toBe('/de/cookie-settings?from=test');
  expect(await href('x-default')).toBe('/cookie-settings?from=test');
  await expectNoViolations(page, 'cookie settings in English');

  // By keyboard: the same page in German, under /de/.
  await switcher.getByRole('link', { name: 'Deutsch' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/de\/cookie-settings\?from=test$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('heading', { name: de.cookies.settingsTitle })).toBeVisible();
  const german = page.getByRole('navigation', { name: de.language.label });
  await expect(german.getByRole('link', { name: 'Deutsch' })).toHaveAttribute('aria-current', 'true');
  await expect(page.getByRole('navigation', { name: de.menu.mainMenu })).toContainText(
    de.menu.gettingStarted,
  );
  expect((await context.cookies()).find((c) => c.name === 'portico_lang')?.value).toBe('de');
  await expect(page.locator('head link[rel="alternate"][hreflang]')).toHaveCount(3);
  await expectNoViolations(page, 'cookie settings in German');

  // A reload keeps it; so does a link inside the app, and an English address (the cookie decides).
  await page.reload();
  await expect(page.getByRole('heading', { name: de.cookies.settingsTitle })).toBeVisible();
  await page
    .getByRole('navigation', { name: de.menu.mainMenu })
    .getByRole('link', { name: de.menu.home })
    .click();
  await expect(page).toHaveURL(/\/de\/?$/);
  await expect(page.getByText(de.home.hero)).toBeVisible();
  await expectNoViolations(page, 'home page in German');
  await page.goto('/cookie-settings');
  await expect(page).toHaveURL(/\/de\/cookie-settings$/);
  await expect(page.getByRole('heading', { name: de.cookies.settingsTitle })).toBeVisible();

  // Back to English.
  await page
    .getByRole('navigation', { name: de.language.label })
    .getByRole('link', { name: 'English' })
    .click();
  await expect(page).toHaveURL(/\/cookie-settings$/);
  await expect(page).not.toHaveURL(/\/de\//);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { name: en.cookies.settingsTitle })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: en.cookies.settingsTitle })).toBeVisible();
  await expect(page.getByText(en.home.hero)).toHaveCount(0);
});

test('the not-found page, the search and the FAQ speak German under /de/', async ({ page }) => {
  await page.goto('/de/no-such-page-here');
  await expect(page.getByText(de.errors.notFoundTitle)).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expectNoViolations(page, 'not-found page in German');
  await page.goto('/de/search');
  await expect(page.getByRole('heading', { name: deContent.search.title, level: 1 })).toBeVisible();
  await expect(page.getByText(deContent.search.emptyQuery)).toBeVisible();
  await page.goto('/de/faq-page');
  await expect(page.getByRole('heading', { name: deContent.content.faqTitle, level: 1 })).toBeVisible();
  await expectNoViolations(page, 'FAQ in German');
});

test("a signed-in user's choice is kept on the account and comes back at the next sign-in", async ({
  page,
  context,
}) => {
  const email = await signUp(page, 'Lotte', 'Sprache');
  await page
    .getByRole('navigation', { name: en.language.label })
    .getByRole('link', { name: 'Deutsch' })
    .click();
  await expect(page).toHaveURL(/\/de\/?$/);
  await expect(page.getByText('Willkommen, Lotte Sprache')).toBeVisible();
  const me = (await (await page.request.get('/session/user')).json()) as { preferredLangcode: string };
  expect(me.preferredLangcode).toBe('de');

  // Signed out, the cookie forgotten: the next sign-in, from an English page, returns in German.
  await page.getByRole('button', { name: de.user.signOut }).click();
  await expect(page.getByRole('link', { name: de.user.login, exact: true })).toBeVisible();
  await context.clearCookies();
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.getByRole('link', { name: en.user.login, exact: true }).click();
  await page.waitForURL(/\/idp\/interaction\//);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill('Secret#Passw0rd');
  await page.locator('form button[type="submit"]').last().click();
  await expect(page.getByText('Willkommen, Lotte Sprache')).toBeVisible();
  await expect(page).toHaveURL(/\/de\/?$/);
});
