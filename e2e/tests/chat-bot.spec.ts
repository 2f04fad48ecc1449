import { en } from '@portico/contracts/messages';
import { BOT_DOCUMENTATION } from '../support/chat-bot-standin.ts';
import { expectNoViolations } from '../support/axe.ts';
import { expect, test } from '../support/traffic.ts';

/**
 * The documentation's chat bot block (spec B 2.12): e2e/start-portal.ts gives the FX Rates API
 * documentation a bot at a stand-in page on another origin (support/chat-bot-standin.ts).
 */
const B = en.chatBot;
const TITLE = 'FX Rates API';

test('the chat bot opens in a sandboxed frame with the page context, and gives focus back', async ({
  page,
}) => {
  const documentation = await page.request.get(`/jsonapi/node/api_documentation/${BOT_DOCUMENTATION}`);
  const botUrl = ((await documentation.json()) as { data: { attributes: { field_bot_url: string } } }).data
    .attributes.field_bot_url;
  expect(botUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/bot$/);

  const response = await page.goto(`/documentation/${BOT_DOCUMENTATION}#operation/getRate`);
  // The portal lets its pages frame the catalog's bot origin, and no other.
  const policy = (await response?.headerValue('content-security-policy')) ?? '';
  expect(/(?:^|;)frame-src ([^;]*)/.exec(policy)?.[1]).toBe(`'self' ${new URL(botUrl).origin}`);
  await expect(page.getByTestId('operation-details-getRate')).toBeVisible();

  const launcher = page.getByRole('button', { name: B.open });
  await expect(launcher).toHaveAttribute('aria-expanded', 'false');
  // The frame is made only when the user asks for the bot.
  await expect(page.locator('iframe')).toHaveCount(0);

  await launcher.focus();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('dialog', { name: B.title.replace('{{title}}', TITLE) });
  await expect(panel).toBeVisible();
  await expect(launcher).toHaveAttribute('aria-expanded', 'true');
  await expect(panel.getByRole('heading', { name: B.title.replace('{{title}}', TITLE) })).toBeFocused();
  const expected = `${botUrl}?documentation=${BOT_DOCUMENTATION}&operation=getRate`;
  const frame = panel.locator('iframe');
  await expect(frame).toHaveAttribute('src', expected);
  await expect(frame).toHaveAttribute('title', B.frameTitle.replace('{{title}}', TITLE));
  await expect(frame).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms allow-popups');
  // The bot's page loaded (the CSP allowed it) and got the context.
  await expect(page.frameLocator('[data-testid="chat-bot-frame"]').getByTestId('bot-context')).toHaveText(
    `Documentation: ${BOT_DOCUMENTATION}; operation: getRate`,
  );
  const newTab = panel.getByRole('link', { name: B.openInNewTab });
  await expect(newTab).toHaveAttribute('href', expected);
  await expect(newTab).toHaveAttribute('target', '_blank');

  await expectNoViolations(page, 'the chat bot', {
    include: ['[data-testid="chat-bot-panel"]', '[data-testid="chat-bot-launcher"]'],
  });

  // Escape closes it and gives the focus back to the launcher.
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(launcher).toBeFocused();

  // Open again from the keyboard; the close button closes it the same way.
  await page.keyboard.press('Enter');
  await expect(panel).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(panel.getByRole('button', { name: B.close })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(panel).toBeHidden();
  await expect(launcher).toBeFocused();
});

test('a documentation without a bot has no chat bot block', async ({ page }) => {
  await page.goto('/documentation/accounts-v1');
  await expect(page.getByRole('heading', { level: 1, name: 'Accounts API Documentation' })).toBeVisible();
  await expect(page.getByTestId('operation').first()).toBeVisible();
  await expect(page.getByRole('button', { name: B.open })).toHaveCount(0);
});
