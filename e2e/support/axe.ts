import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, networkQuiet } from './traffic.ts';

/** WCAG 2.1 A and AA, and axe's best practices: the level every screen is held to. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * axe on the page as it is once its requests are done (late styles and data change what axe
 * sees), limited to `include` selectors when given. The failure lists each rule with the nodes.
 */
export async function expectNoViolations(
  page: Page,
  screen: string,
  options: { include?: string[] } = {},
): Promise<void> {
  await networkQuiet(page);
  let builder = new AxeBuilder({ page }).withTags(TAGS);
  for (const selector of options.include ?? []) builder = builder.include(selector);
  const { violations } = await builder.analyze();
  const found = violations.map(
    (v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`,
  );
  expect(found, `axe on ${screen}`).toEqual([]);
}
