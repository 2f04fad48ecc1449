import { expect, type Locator, type Page } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import { consoleMessages as C } from '@portico/contracts/messages/console';

/** The header's one link to the provider console (for any provider role). */
export function consoleLink(page: Page): Locator {
  return page.getByRole('banner').getByRole('link', { name: C.link });
}

/** The console's navigation: the sections the user's roles may use. */
export function consoleNav(page: Page): Locator {
  return page.getByRole('navigation', { name: C.navLabel });
}

/** Opens a section of the console as a user does: the header's link, then the console's navigation. */
export async function openConsoleSection(page: Page, section: string): Promise<void> {
  await consoleLink(page).click();
  await consoleNav(page).getByRole('link', { name: section, exact: true }).click();
}

/** The demo content editor of content/users.yaml. */
export const contentEditor = { email: 'content.editor@portico.local', password: 'ContentEditor#2026' };

/**
 * A console call from the signed-in page: the page's own fetch, with its session cookie and CSRF
 * token, as the console's screens make it. A 204 has no body.
 */
export async function consoleCall(
  page: Page,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const token = await (await fetch('/session/token')).text();
      const res = await fetch(url, {
        method,
        headers: {
          'x-csrf-token': token,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as unknown) };
    },
    { method, url, body },
  );
}

/** A published article of the test's own, created through the console's API; its id. */
export async function newArticle(
  page: Page,
  slug: string,
  title: string,
  description: string,
): Promise<string> {
  const created = await consoleCall(page, 'POST', '/admin-api/content/articles', {
    title,
    path: `/blog/${slug}`,
    description,
    body: 'Money arrives **at once**.',
    state: 'published',
  });
  expect(created.status).toBe(201);
  return (created.body as { data: { id: string } }).data.id;
}

const TR = en.translations.console;

/** Opens the German part of a console editor's translations panel (within `scope`); the part. */
export async function openGermanTranslation(scope: Page | Locator): Promise<Locator> {
  const german = scope.getByTestId('translation-de');
  await german.getByRole('button', { name: TR.open.replace('{{language}}', 'Deutsch') }).click();
  return german;
}

/** Fills the German fields (by their labels without ' (Deutsch)'), saves, and waits for the note. */
export async function saveGermanTranslation(german: Locator, texts: Record<string, string>): Promise<void> {
  for (const [label, text] of Object.entries(texts)) await german.getByLabel(`${label} (Deutsch)`).fill(text);
  await german.getByRole('button', { name: TR.save }).click();
  await expect(german.getByRole('status')).toHaveText(TR.saved.replace('{{language}}', 'Deutsch'));
}
