import type { Page } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import { expectNoViolations } from '../support/axe.ts';
import { signIn } from '../support/session.ts';
import { expect, test } from '../support/traffic.ts';

/**
 * The site's texts in the console (issue 27): a content editor adds a footer column with a link,
 * sees it in the preview, saves it, and a visitor sees it in the footer at once; a save from an
 * older version is told and shown the difference. The editor then removes the column again: the
 * footer is as the demo content has it (other specs read it). A footer change saved as a draft is
 * not shown to visitors until it is published.
 */
const M = en.console.site;
const editorAccount = { email: 'content.editor@portico.local', password: 'ContentEditor#2026' };

test.describe.configure({ timeout: 90_000 });

async function declineCookies(page: Page): Promise<void> {
  await page
    .getByRole('dialog', { name: en.cookies.settingsTitle })
    .getByRole('button', { name: en.cookies.decline })
    .click();
}

test('a content editor adds a footer column; a visitor sees it at once; a stale save is told the difference', async ({
  page,
  browser,
}) => {
  const column = `Partners ${Date.now()}`;
  await signIn(page, editorAccount.email, editorAccount.password);
  await declineCookies(page);
  await page.goto('/admin/content');
  await page.getByRole('link', { name: M.title }).click();
  await expect(page).toHaveURL(/\/admin\/content\/site$/);
  await expect(page.getByRole('heading', { level: 1, name: M.title })).toBeVisible();
  // The carousel's slides of the demo content, in the form and in the preview.
  await expect(page.getByTestId('site-carousel-item')).toHaveCount(3);
  await expect(page.getByTestId('site-preview').getByText('Open Banking APIs')).toBeVisible();
  await expectNoViolations(page, '/admin/content/site');

  await page.getByRole('tab', { name: M.tabs.footer }).click();
  const footerName = M.tabs.footer;
  const columns = page.getByTestId('site-footer-item');
  await expect(columns).toHaveCount(3);
  await page.getByRole('button', { name: `${M.add}: ${footerName}`, exact: true }).click();
  await expect(columns).toHaveCount(4);
  const added = columns.nth(3);
  await added.getByRole('textbox', { name: M.fields.title }).first().fill(column);
  await added.getByRole('button', { name: `${M.add}: ${column} · ${M.link}` }).click();
  const link = added.getByTestId('site-footer-links-item');
  await link.getByRole('textbox', { name: M.fields.title }).fill('Become a partner');
  await link.getByRole('textbox', { name: M.fields.url }).fill('/support/contact');
  await expect(page.getByTestId('site-preview').getByText(column)).toBeVisible();
  await expect(page.getByTestId('site-preview').getByText('Become a partner')).toBeVisible();
  await expectNoViolations(page, '/admin/content/site (footer)');

  await page.getByRole('button', { name: M.save, exact: true }).click();
  const saved = page.getByRole('status').filter({ hasText: /^Saved \(version \d+\)\.$/ });
  await expect(saved).toBeVisible();
  await expect(page.getByTestId('site-revisions').getByText(editorAccount.email).first()).toBeVisible();

  // A visitor sees the new column in the footer at once.
  const visitorContext = await browser.newContext();
  try {
    const visitor = await visitorContext.newPage();
    await visitor.goto('/');
    const footer = visitor.locator('footer');
    await expect(footer.getByRole('heading', { name: column })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Become a partner' })).toHaveAttribute(
      'href',
      '/support/contact',
    );
  } finally {
    await visitorContext.close();
  }

  // Someone else saves meanwhile (the same account in another tab, through the API).
  const token = await (await page.request.get('/session/token')).text();
  const current = (await (await page.request.get('/admin-api/site/block-layout')).json()) as {
    data: { version: number; content: unknown };
  };
  const other = await page.request.put('/admin-api/site/block-layout', {
    headers: { 'X-CSRF-Token': token, 'Content-Type': 'application/json' },
    data: { content: current.data.content, version: current.data.version },
  });
  expect(other.status()).toBe(200);

  // This tab still holds the older version: removing the column is refused and explained.
  await page.getByRole('button', { name: `${M.remove}: ${footerName} 4` }).click();
  await expect(columns).toHaveCount(3);
  await page.getByRole('button', { name: M.save, exact: true }).click();
  const conflict = page.getByTestId('site-conflict');
  await expect(conflict.getByText(M.conflictTitle)).toBeVisible();
  await expect(conflict).toContainText(`+ - title: ${column}`);
  await page.getByRole('button', { name: M.reload }).click();
  await expect(conflict).toHaveCount(0);
  await expect(columns).toHaveCount(4);

  // Removed again from the version loaded: the footer is as the demo content has it.
  await page.getByRole('button', { name: `${M.remove}: ${footerName} 4` }).click();
  await page.getByRole('button', { name: M.save, exact: true }).click();
  await expect(saved).toBeVisible();
  const after = (await (await page.request.get('/block-layout?_format=json')).json()) as {
    footer: { title: string }[];
  };
  expect(after.footer.map((f) => f.title)).toEqual(['Developers', 'Support', 'Legal']);
});

test('a content editor saves a footer change as a draft a visitor does not see, then publishes it', async ({
  page,
  browser,
}) => {
  const column = `Draft column ${Date.now()}`;
  const visitorFooterHas = async (expected: boolean) => {
    const context = await browser.newContext();
    try {
      const visitor = await context.newPage();
      await visitor.goto('/');
      const heading = visitor.locator('footer').getByRole('heading', { name: column });
      if (expected) await expect(heading).toBeVisible();
      else {
        await expect(visitor.locator('footer').getByRole('heading').first()).toBeVisible();
        await expect(heading).toHaveCount(0);
      }
    } finally {
      await context.close();
    }
  };
  await signIn(page, editorAccount.email, editorAccount.password);
  await declineCookies(page);
  try {
    await page.goto('/admin/content/site');
    await page.getByRole('tab', { name: M.tabs.footer }).click();
    const state = page.getByTestId('site-state');
    await expect(state).toContainText(M.state.live);
    const columns = page.getByTestId('site-footer-item');
    await expect(columns).toHaveCount(3);
    await page.getByRole('button', { name: `${M.add}: ${M.tabs.footer}`, exact: true }).click();
    await columns.nth(3).getByRole('textbox', { name: M.fields.title }).first().fill(column);

    await page.getByRole('button', { name: M.saveDraft, exact: true }).click();
    await expect(
      page.getByRole('status').filter({ hasText: /^Saved as a draft \(version \d+\)/ }),
    ).toBeVisible();
    await expect(state).toContainText(M.state.draft);
    await expect(page.getByRole('heading', { name: M.previewDraft })).toBeVisible();
    await expect(page.getByTestId('site-preview').getByText(column)).toBeVisible();
    await expect(page.getByRole('button', { name: M.discardDraft })).toBeVisible();
    await expect(page.getByTestId('site-revisions')).toContainText(`(${M.revisionState.draft})`);
    await expectNoViolations(page, '/admin/content/site (draft pending)');
    await visitorFooterHas(false);

    // Read again from the server: the draft is what the form shows.
    await page.reload();
    await page.getByRole('tab', { name: M.tabs.footer }).click();
    await expect(columns).toHaveCount(4);
    await page.getByRole('button', { name: M.save, exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: /^Saved \(version \d+\)\.$/ })).toBeVisible();
    await expect(state).toContainText(M.state.live);
    await expect(page.getByRole('button', { name: M.discardDraft })).toHaveCount(0);
    await visitorFooterHas(true);
  } finally {
    // The footer as the demo content has it: no draft, no extra column.
    const token = await (await page.request.get('/session/token')).text();
    const doc = (await (await page.request.get('/admin-api/site/block-layout')).json()) as {
      data: { version: number; draft: unknown; content: { footer: { title: string }[] } };
    };
    const headers = { 'X-CSRF-Token': token, 'Content-Type': 'application/json' };
    let version = doc.data.version;
    if (doc.data.draft) {
      const res = await page.request.delete('/admin-api/site/block-layout/draft', {
        headers,
        data: { version },
      });
      expect(res.status()).toBe(200);
      version += 1;
    }
    if (doc.data.content.footer.some((f) => f.title === column)) {
      const content = {
        ...doc.data.content,
        footer: doc.data.content.footer.filter((f) => f.title !== column),
      };
      const res = await page.request.put('/admin-api/site/block-layout', {
        headers,
        data: { content, version },
      });
      expect(res.status()).toBe(200);
    }
    const after = (await (await page.request.get('/block-layout?_format=json')).json()) as {
      footer: { title: string }[];
    };
    expect(after.footer.map((f) => f.title)).toEqual(['Developers', 'Support', 'Legal']);
  }
});

test('a support agent cannot open the site texts', async ({ page }) => {
  await signIn(page, 'support.agent@portico.local', 'SupportAgent#2026');
  await declineCookies(page);
  await page.goto('/admin/content/site');
  await expect(page.getByRole('heading', { level: 1, name: en.errors.unauthorized })).toBeVisible();
  await expect(page.getByRole('textbox', { name: M.fields.title })).toHaveCount(0);
  const res = await page.request.get('/admin-api/site/block-layout');
  expect(res.status()).toBe(403);
});
