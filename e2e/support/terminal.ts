import { expect, type Locator, type Page } from '@playwright/test';

/** The terminal window and its screen (xterm.js draws its rows as DOM text). */
export function terminal(page: Page): { window: Locator; screen: Locator } {
  const window = page.getByTestId('terminal-window');
  return { window, screen: window.getByTestId('terminal-screen') };
}

/**
 * Opens the terminal with the T key (nothing focused) and waits for init's welcome line. The
 * launcher (and its T key) loads after sign-in, on its own: its button says it is there.
 */
export async function openTerminal(page: Page): Promise<void> {
  await expect(page.getByTestId('terminal-launcher')).toBeVisible();
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('t');
  await expect(terminal(page).window).toBeVisible();
  await expect(terminal(page).screen).toContainText('Welcome to the Developers Portal terminal');
}

/** Types a line into the terminal and presses Enter. */
export async function enter(page: Page, line: string): Promise<void> {
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}
