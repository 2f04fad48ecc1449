import type { Page } from '@playwright/test';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { expectNoViolations } from '../support/axe.ts';
import { signIn } from '../support/session.ts';
import { expect, test } from '../support/traffic.ts';

/**
 * The console's page and FAQ lists say when a scheduled item goes live, as the articles' list does
 * (issue 27). The items are made for the test, far in the future, and deleted again at the end.
 */
const P = en.console.pages.list;
const F = en.console.content.faq;
// A demo account of content/users.yaml (README 'Demo accounts').
const editorAccount = { email: 'content.editor@portico.local', password: 'ContentEditor#2026' };

async function declineCookies(page: Page): Promise<void> {
  await page
    .getByRole('dialog', { name: en.cookies.settingsTitle })
    .getByRole('button', { name: en.cookies.decline })
    .click();
}

/** A console write through the signed-in page's session, with its CSRF token. */
async function write(page: Page, method: 'POST' | 'DELETE', url: string, body?: object) {
  const token = await (await page.request.get('/session/token')).text();
  const res = await page.request.fetch(url, {
    method,
    headers: { 'x-csrf-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { data: JSON.stringify(body) } : {}),
  });
  expect(res.ok(), await res.text()).toBe(true);
  return res.status() === 204
    ? undefined
    : ((await res.json()) as { data: { id: string; publishAt: string } }).data;
}

test('the page and FAQ lists show when a scheduled item is published', async ({ page }) => {
  const stamp = Date.now();
  const publishAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
  await signIn(page, editorAccount.email, editorAccount.password);
  await declineCookies(page);
  const scheduledPage = (await write(page, 'POST', '/admin-api/content/pages', {
    title: `Scheduled okapi ${stamp}`,
    path: `/legal/scheduled-okapi-${stamp}`,
    body: 'Okapis, soon.',
    state: 'scheduled',
    publishAt,
  }))!;
  const scheduledFaq = (await write(page, 'POST', '/admin-api/content/faqs', {
    question: `Do scheduled okapis ${stamp} call the API?`,
    answer: 'Soon.',
    state: 'scheduled',
    publishAt,
  }))!;
  try {
    // The time as the console writes it in English (spec B 9: DD-MM-YYYY HH:mm), in the
    // browser's time zone.
    const when = await page.evaluate((iso) => {
      const d = new Date(iso);
      const two = (n: number) => String(n).padStart(2, '0');
      return `${two(d.getDate())}-${two(d.getMonth() + 1)}-${d.getFullYear()} ${two(d.getHours())}:${two(d.getMinutes())}`;
    }, scheduledPage.publishAt!);

    await page.goto('/admin/content/pages');
    await page.getByLabel(P.searchLabel).fill(`okapi ${stamp}`);
    const pageRow = page
      .getByTestId('console-pages')
      .getByRole('row')
      .filter({ hasText: `${stamp}` });
    await expect(pageRow).toContainText(P.states.scheduled);
    await expect(pageRow).toContainText(format(P.scheduledFor, { date: when }));
    await expectNoViolations(page, '/admin/content/pages (a scheduled page)');

    await page.goto('/admin/content/faq');
    await page.getByLabel(F.searchLabel).fill(`okapis ${stamp}`);
    const faqRow = page
      .getByTestId('console-faqs')
      .getByRole('row')
      .filter({ hasText: `${stamp}` });
    await expect(faqRow).toContainText(F.states.scheduled);
    await expect(faqRow).toContainText(format(F.scheduledFor, { date: when }));
    await expectNoViolations(page, '/admin/content/faq (a scheduled question)');
  } finally {
    // The demo content as it was.
    await write(page, 'DELETE', `/admin-api/content/pages/${scheduledPage.id}`);
    await write(page, 'DELETE', `/admin-api/content/faqs/${scheduledFaq.id}`);
  }
});
