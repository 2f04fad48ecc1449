import { en } from '@portico/contracts/messages';
import { demoDeveloper, signIn, signInAtProvider, uniqueEmail, verifyEmail } from '../support/session.ts';
import { expect, networkQuiet, test } from '../support/traffic.ts';

test.describe('sign up, sign in and sign out', () => {
  test('a visitor signs up on the identity provider and comes back signed in', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: en.user.signUp }).click();
    await page.waitForURL(/\/idp\/interaction\//);
    await expect(page.getByRole('heading', { name: en.identity.signUpTitle })).toBeVisible();
    await page.getByLabel(en.identity.firstNameLabel).fill('Sam');
    await page.getByLabel(en.identity.lastNameLabel).fill('Signup');
    await page.getByLabel(en.identity.emailLabel).fill(uniqueEmail('signup'));
    await page.getByLabel(en.identity.passwordLabel).fill('Secret#Passw0rd');
    await page.getByRole('button', { name: en.identity.createAccountButton }).click();
    await expect(page.getByText('Welcome Sam Signup')).toBeVisible();
    await expect(page.getByRole('button', { name: en.user.signOut })).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
  });

  test('a new account is asked to confirm its address, may ask for a new link, and confirms it', async ({
    page,
    browser,
  }) => {
    const email = uniqueEmail('verify');
    await page.goto('/');
    await page.getByRole('link', { name: en.user.signUp }).click();
    await page.waitForURL(/\/idp\/interaction\//);
    await page.getByLabel(en.identity.firstNameLabel).fill('Vera');
    await page.getByLabel(en.identity.lastNameLabel).fill('Fied');
    await page.getByLabel(en.identity.emailLabel).fill(email);
    await page.getByLabel(en.identity.passwordLabel).fill('Secret#Passw0rd');
    await page.getByRole('button', { name: en.identity.createAccountButton }).click();
    await expect(page.getByText('Welcome Vera Fied')).toBeVisible();
    const notice = page.getByRole('region', { name: en.identity.verifyTitle });
    await expect(notice).toContainText(en.identity.emailNotVerified.replace('{{email}}', email));
    await notice.getByRole('button', { name: en.identity.resendVerification }).click();
    await expect(notice.getByRole('status')).toHaveText(
      en.identity.verificationSent.replace('{{email}}', email),
    );
    // The notice comes with the page's first render: one that came later, above the page, moved
    // what the reader was about to click. Noted at the first change that puts the app's main in.
    await page.addInitScript((label) => {
      const w = window as unknown as { noticeWithPage?: boolean };
      new MutationObserver((_, observer) => {
        if (!document.querySelector('#root main')) return;
        w.noticeWithPage = document.querySelector(`#root [role="region"][aria-label="${label}"]`) !== null;
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    }, en.identity.verifyTitle);
    await page.reload();
    await expect(notice).toBeVisible();
    expect(
      await page.evaluate(() => (window as unknown as { noticeWithPage?: boolean }).noticeWithPage),
    ).toBe(true);
    await verifyEmail(page, browser, email);
    await expect(page.getByText('Welcome Vera Fied')).toBeVisible();
    await expect(notice).toHaveCount(0);
  });

  test('LOGIN signs a demo user in; Sign Out ends the session on the server', async ({ page }) => {
    await signIn(page);
    await expect(page.getByText(`Welcome ${demoDeveloper.name}`)).toBeVisible();
    await expect(page.getByRole('link', { name: en.user.myProfile })).toBeVisible();
    // The demo accounts are verified: no notice asks them to confirm their address.
    await expect(page.getByRole('region', { name: en.identity.verifyTitle })).toHaveCount(0);

    await page.getByRole('button', { name: en.user.signOut }).click();
    await expect(page.getByRole('link', { name: en.user.login, exact: true })).toBeVisible();
    const status = await page.request.get('/user/login_status?_format=json');
    expect(await status.text()).toBe('0');
    // No expiry modal after a manual logout.
    await page.reload();
    await expect(page.getByText(en.errors.sessionExpired)).toHaveCount(0);
  });

  test('/login?returnTo brings the user back to the page they asked for', async ({ page }) => {
    await page.goto('/login?returnTo=%2Fcookie-settings%3Ffrom%3Dtest');
    await signInAtProvider(page, demoDeveloper.email, demoDeveloper.password);
    await expect(page).toHaveURL(/\/cookie-settings\?from=test$/);
    await expect(page.getByRole('heading', { name: en.cookies.settingsTitle })).toBeVisible();
    await expect(page.getByText(`Welcome ${demoDeveloper.name}`)).toBeVisible();
  });

  test('a wrong password is refused by the provider and the user stays signed out', async ({ page }) => {
    await page.goto('/login');
    await signInAtProvider(page, demoDeveloper.email, 'wrong-password');
    await expect(page.getByRole('alert')).toBeVisible();
    const status = await page.request.get('/user/login_status?_format=json');
    expect(await status.text()).toBe('0');
  });
});

test.describe('protected pages and roles', () => {
  test('an anonymous visitor sees LOGIN TO VIEW, and logging in returns to the page', async ({ page }) => {
    await page.goto('/profile?tab=details');
    await expect(page.getByRole('heading', { name: en.errors.unauthorized })).toBeVisible();
    await expect(page.getByText(en.errors.onlyMembers)).toBeVisible();
    await page.getByRole('link', { name: en.errors.loginToView }).click();
    await signInAtProvider(page, demoDeveloper.email, demoDeveloper.password);
    await expect(page).toHaveURL(/\/profile\?tab=details$/);
    await expect(page.getByRole('heading', { name: en.user.myProfile })).toBeVisible();
    await expect(page.getByText(demoDeveloper.email)).toBeVisible();
  });

  test('the main menu shows API PRODUCTS and APPS only to signed-in users', async ({ page }) => {
    await page.goto('/');
    const menu = page.getByRole('navigation', { name: en.menu.mainMenu });
    for (const item of [en.menu.home, en.menu.gettingStarted, en.menu.support, en.menu.blog, en.menu.faqs]) {
      await expect(menu.getByRole('link', { name: item, exact: true })).toBeVisible();
    }
    await expect(menu.getByRole('link', { name: en.menu.search })).toBeVisible();
    await expect(menu.getByRole('link', { name: en.menu.apiProducts })).toHaveCount(0);
    await expect(menu.getByRole('link', { name: en.menu.apps })).toHaveCount(0);

    await signIn(page);
    await expect(menu.getByRole('link', { name: en.menu.apiProducts })).toBeVisible();
    await expect(menu.getByRole('link', { name: en.menu.apps })).toBeVisible();
  });

  test('a session that ended on the server shows the expiry modal with LOGIN', async ({ page, context }) => {
    await signIn(page);
    // The home page checks the new session when it is shown (session/token, login_status): cleared
    // before that check is sent, the cookies would be missing from it, the page would end the
    // session itself, and the next page would have nothing left to call expired.
    await networkQuiet(page);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name.startsWith('SESS'));
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
    // The sessions end (as after their expiry): the browser no longer holds the portal's or the
    // identity provider's session cookie, while the page still believes it is signed in.
    await context.clearCookies();
    await page.goto('/cookie-settings');
    const modal = page.getByRole('dialog', { name: en.errors.sessionExpired });
    await expect(modal).toBeVisible();
    await modal.getByRole('button', { name: en.user.login }).click();
    await signInAtProvider(page, demoDeveloper.email, demoDeveloper.password);
    await expect(page).toHaveURL(/\/cookie-settings$/);
    await expect(page.getByText(`Welcome ${demoDeveloper.name}`)).toBeVisible();
  });
});
