import { expect, type Locator, type Page } from '@playwright/test';

/** The Quick Start tour's tooltip (react-joyride) showing `text`. */
export function tourTooltip(page: Page, text: string): Locator {
  return page.getByRole('alertdialog').or(page.getByRole('dialog')).filter({ hasText: text });
}

/** Waits for the tooltip showing `text` and presses its primary button (Next, Finish). */
export async function nextStep(page: Page, text: string): Promise<void> {
  const tooltip = tourTooltip(page, text);
  await expect(tooltip).toBeVisible({ timeout: 15_000 });
  await tooltip.locator('[data-action="primary"]').click();
}

/**
 * The tour's spotlight (the cut-out of its overlay) surrounds `target`: what the step points at
 * is what the visitor sees highlighted.
 */
export async function expectSpotlightOn(page: Page, target: Locator): Promise<void> {
  const cutout = page.getByTestId('spotlight').locator('path').nth(1);
  await expect
    .poll(
      async () => {
        const [spot, box] = await Promise.all([cutout.boundingBox(), target.boundingBox()]);
        if (!spot || !box) return 'not shown';
        const around =
          spot.x <= box.x + 1 &&
          spot.y <= box.y + 1 &&
          spot.x + spot.width >= box.x + box.width - 1 &&
          spot.y + spot.height >= box.y + box.height - 1 &&
          // Around it, not around the whole page.
          spot.width < box.width + 100 &&
          spot.height < box.height + 100;
        return around ? 'around the target' : JSON.stringify({ spot, box });
      },
      { timeout: 10_000 },
    )
    .toBe('around the target');
}
