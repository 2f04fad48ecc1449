import { expect, test } from '../support/traffic.ts';
import { en } from '@portico/contracts/messages';
import { expectNoViolations } from '../support/axe.ts';

const P = en.products;

/**
 * Issue 30: beside an expanded operation, 'Copy as Markdown' copies the operation's Markdown (the
 * server's /documentation/<alias>/operations/<key>.md) and 'Open in an assistant' opens ChatGPT or
 * Claude with a prompt naming that address.
 */
test("an operation's Markdown is copied, and an assistant opened with its address", async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto('/documentation/accounts-v1#operation/getAccount');
  const details = page.getByTestId('operation-details-getAccount');
  const actions = details.getByTestId('markdown-actions');
  await expect(actions).toBeVisible();

  await actions.getByRole('button', { name: P.copyMarkdown }).click();
  await expect(actions.getByRole('button', { name: P.markdownCopied })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied.startsWith('# GET /accounts/{accountId}\n')).toBe(true);
  expect(copied).toContain('**Get an account**');

  const url = `${new URL(page.url()).origin}/documentation/accounts-v1/operations/getAccount.md`;
  const prompt = encodeURIComponent(`Read ${url} and help me call this API operation.`);
  const assistants = actions.getByRole('group', { name: P.openInAssistant });
  await expect(assistants.getByRole('link', { name: P.openInChatGpt })).toHaveAttribute(
    'href',
    `https://chatgpt.com/?q=${prompt}`,
  );
  await expect(assistants.getByRole('link', { name: P.openInClaude })).toHaveAttribute(
    'href',
    `https://claude.ai/new?q=${prompt}`,
  );
  await expectNoViolations(page, 'the Markdown actions', { include: ['[data-testid="markdown-actions"]'] });
  expect(errors).toEqual([]);
});
