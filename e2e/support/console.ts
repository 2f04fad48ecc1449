import type { Locator, Page } from '@playwright/test';
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
