import { generateKeyPairSync } from 'node:crypto';
import { expect, test } from '../support/traffic.ts';
import { en } from '@portico/contracts/messages';
import { createOrganization, signUp } from '../support/applications.ts';
import { expectNoViolations } from '../support/axe.ts';

const UI = en.applications.ui;
const C = en.clientAuth;
const APPLICATION_URL = /\/application\/([0-9a-f-]{36})\?organization=/;

/** An EC key pair as JWKs: the public one for the form, the private one as a developer's mistake. */
function keyPair(kid: string) {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    publicJwk: { ...publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'ES256' },
    privateJwk: { ...privateKey.export({ format: 'jwk' }), kid },
  };
}

test('a developer chooses signed JWT client authentication with a pasted JWKS', async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page, 'Kim', 'Keys');
  const organization = await createOrganization(page, `Signed JWT Co ${Date.now()}`);
  const keys = keyPair('tpp-signing-1');

  await page.goto(`/application?organization=${organization}`);
  await expect(page.getByRole('heading', { name: en.applications.createTitle })).toBeVisible();
  const title = `Signed JWT app ${Date.now()}`;
  await page.getByLabel(UI.title).fill(title);
  await page
    .getByRole('textbox', { name: UI.description })
    .fill('Gets tokens with a signed client assertion.');
  await page.getByRole('checkbox', { name: UI.clientCredentials }).check();

  // The client secret is the default; signed JWT asks for the keys.
  await expect(page.getByRole('radio', { name: C.methods.client_secret })).toBeChecked();
  await page.getByRole('radio', { name: C.methods.private_key_jwt }).check();
  const jwks = page.getByRole('textbox', { name: C.jwks });
  await expect(jwks).toBeVisible();
  await expectNoViolations(page, 'create application (signed JWT)');

  // A private key pasted by mistake: the server names the key and the member, nothing is created.
  await jwks.fill(JSON.stringify({ keys: [keys.privateJwk] }, null, 2));
  await page.getByRole('button', { name: UI.create }).click();
  await expect(page.getByTestId('form-error')).toHaveText(
    'JWKS /keys/0/d: this is a private key; paste only the public key (remove the private parts) and keep the private key to yourself',
  );
  await expect(page).not.toHaveURL(APPLICATION_URL);
  // The field the server's pointer names shows the message too.
  await expect(jwks).toHaveAttribute('aria-invalid', 'true');
  await expect(jwks).toHaveAccessibleDescription(/JWKS \/keys\/0\/d: this is a private key/);
  // Not JSON at all.
  await jwks.fill('{"keys": [');
  await page.getByRole('button', { name: UI.create }).click();
  await expect(page.getByTestId('form-error')).toContainText('The JWKS is not valid JSON');
  await expectNoViolations(page, 'create application (JWKS refused)');

  await jwks.fill(JSON.stringify({ keys: [keys.publicJwk] }, null, 2));
  await page.getByRole('button', { name: UI.create }).click();
  await expect(page).toHaveURL(APPLICATION_URL);
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  const summary = page.getByTestId('client-authentication');
  await expect(summary.getByText(C.methods.private_key_jwt, { exact: true })).toBeVisible();
  await expect(summary.getByText('Registered public keys: 1')).toBeVisible();
  await expect(summary.getByText('tpp-signing-1', { exact: true })).toBeVisible();
  await expectNoViolations(page, 'application view (signed JWT)');

  // The edit form shows the stored method and keys.
  await page.getByRole('link', { name: UI.edit }).click();
  await expect(page.getByRole('radio', { name: C.methods.private_key_jwt })).toBeChecked();
  await expect(page.getByRole('textbox', { name: C.jwks })).toHaveValue(/"kid": "tpp-signing-1"/);
  // Mutual TLS asks for the certificate's subject instead.
  await page.getByRole('radio', { name: C.methods.tls_client_auth }).check();
  await page.getByRole('textbox', { name: C.tlsSubjectDn }).fill('CN=tpp.example,O=Kim Keys,C=NL');
  await page.getByRole('button', { name: UI.save }).click();
  await expect(page).toHaveURL(APPLICATION_URL);
  await expect(summary.getByText(C.methods.tls_client_auth, { exact: true })).toBeVisible();
  await expect(summary.getByText('CN=tpp.example,O=Kim Keys,C=NL')).toBeVisible();
});
