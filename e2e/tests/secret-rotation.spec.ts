import { expect, test } from '../support/traffic.ts';
import { en } from '@portico/contracts/messages';
import { createApplication, createOrganization, signUp } from '../support/applications.ts';
import { expectNoViolations } from '../support/axe.ts';

const S = en.clientSecrets;

/** 'DD-MM-YYYY HH:MM UTC' as the application view writes a date-time. */
const DATE_TIME = /^\d{2}-\d{2}-\d{4} \d{2}:\d{2} UTC$/;

test('a developer rotates a client secret, sees both secrets with their dates and revokes the old one', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUp(page, 'Rota', 'Tion');
  const organization = await createOrganization(page, `Rotation Co ${Date.now()}`);
  const app = await createApplication(page, organization, `Rotating app ${Date.now()}`);
  await page.goto(`/application/${app.uuid}?organization=${organization}`);

  const section = page.getByRole('region', { name: S.heading });
  const rows = section.getByTestId('secret-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByRole('cell').nth(0)).toHaveText(DATE_TIME);
  await expect(rows.first().getByRole('cell').nth(1)).toHaveText(S.noExpiry);
  await expect(rows.first().getByRole('cell').nth(2)).toHaveText(S.current);

  // Rotate with a grace period of 7 days: the dialog takes the focus on its choice.
  await section.getByRole('button', { name: S.rotate, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: S.rotateTitle });
  const grace = dialog.getByRole('combobox', { name: S.gracePeriod });
  await expect(grace).toBeFocused();
  await expect(grace).toHaveValue('24');
  // Colours are measured once the dialog's opening transition is over.
  await expect(dialog).toHaveCSS('opacity', '1');
  await expectNoViolations(page, 'the Rotate dialog');
  await grace.selectOption({ label: S.graceHours['168'] });
  await dialog.getByRole('button', { name: S.rotateConfirm, exact: true }).click();
  await expect(dialog).toBeHidden();

  const rotated = section.getByTestId('rotated-secret');
  await expect(rotated).toContainText(en.applications.copySecret);
  const newSecret = (await section.getByTestId('rotated-secret-value').textContent()) ?? '';
  expect(newSecret.length).toBeGreaterThan(15);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).getByRole('cell').nth(2)).toHaveText(S.current);
  const old = rows.nth(1);
  await expect(old.getByRole('cell').nth(1)).toHaveText(DATE_TIME);
  await expect(old.getByRole('cell').nth(2)).toHaveText(S.active);
  const expires = (await old.getByRole('cell').nth(1).textContent()) ?? '';
  await expect(rotated).toContainText(`The secret was rotated. The previous secret works until ${expires}.`);
  // The application's secret is now the new one.
  await page
    .getByRole('button', { name: `${en.applications.ui.show} ${en.applications.ui.clientSecret}` })
    .click();
  await expect(page.getByTestId('client-secret')).toHaveText(newSecret);
  await expectNoViolations(page, 'the application view with two secrets');

  // Revoke the old secret, after a confirmation; Cancel first changes nothing.
  const created = (await old.getByRole('cell').nth(0).textContent()) ?? '';
  const revokeButton = old.getByRole('button', { name: `Revoke the secret created ${created}` });
  await revokeButton.click();
  const confirm = page.getByRole('dialog', { name: S.revokeTitle });
  await expect(confirm).toContainText(
    `The secret created ${created} stops working at once: token requests with it are refused.`,
  );
  await expect(confirm.getByRole('button', { name: S.cancel })).toBeFocused();
  await confirm.getByRole('button', { name: S.cancel }).click();
  await expect(confirm).toBeHidden();
  await expect(rows).toHaveCount(2);
  await revokeButton.click();
  await expect(confirm.getByRole('button', { name: S.cancel })).toBeFocused();
  // Colours are measured once the dialog's opening transition is over.
  await expect(confirm).toHaveCSS('opacity', '1');
  await expectNoViolations(page, 'the Revoke confirmation');
  await confirm.getByRole('button', { name: S.revokeConfirm }).click();
  await expect(section.getByText(S.revoked)).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByRole('cell').nth(2)).toHaveText(S.current);
  // The current secret has no Revoke button.
  await expect(section.getByRole('button', { name: /^Revoke/ })).toHaveCount(0);
});
