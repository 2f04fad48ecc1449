import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { consoleMessages as C } from '@portico/contracts/messages/console';
import { ownPortalURL, startOwnPortal } from '../support/own-portal.ts';
import { productUuid, subscribe } from '../support/applications.ts';
import { createApplicationByApi } from '../support/products.ts';
import { demoAdmin, demoDeveloper, signIn } from '../support/session.ts';
import { expectNoViolations } from '../support/axe.ts';
import { consoleLink, consoleNav, openConsoleSection } from '../support/console.ts';
import { PROVIDER_TEAM } from '../support/provider-team.ts';
import { expect, test } from '../support/traffic.ts';

/**
 * A provider administrator imports an OpenAPI document from the portal (issue 11, decision 033):
 * a refused document lists its problems, a good one links to its documentation page.
 */
const M = en.apiImport;
// Signing in, an import in the worker threads and an axe run: more than the default on a busy machine.
test.describe.configure({ timeout: 90_000 });

const kennel = (paths: string) => `openapi: 3.0.3
info:
  title: Kennel API
  version: '2.1'
  description: Dogs and their kennels.
paths:
${paths}`;
const GOOD = kennel(`  /dogs:
    get:
      summary: List dogs
      tags: [dogs]
      responses:
        '200':
          description: The dogs
          content:
            application/json:
              example: [{ name: Rex }]
`);
const BROKEN = kennel(`  /dogs:
    get:
      summary: List dogs
      responses:
        '200':
          description: The dogs
          content:
            application/json:
              schema:
                type: dog
`);

async function declineCookies(page: Page): Promise<void> {
  await page
    .getByRole('dialog', { name: en.cookies.settingsTitle })
    .getByRole('button', { name: en.cookies.decline })
    .click();
}

/** Chooses a file through the labelled file input, as a user does (the file chooser opens). */
async function chooseFile(page: Page, name: string, text: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: M.file }).click();
  await (await chooser).setFiles({ name, mimeType: 'application/yaml', buffer: Buffer.from(text) });
}

/**
 * The administrator imports `yaml` as `product` (alias the same); a developer, in a browser of their
 * own, subscribes a new application to it and opens the try-out of `operation`: the console and
 * that browser context, for the caller to close.
 */
async function tryoutOfImported(
  page: Page,
  browser: Browser,
  api: { yaml: string; product: string; title: string; operation: string; application: string },
): Promise<{ console: Locator; context: BrowserContext }> {
  await signIn(page, demoAdmin.email, demoAdmin.password);
  const csrf = await (await page.request.get('/session/token')).text();
  const imported = await page.request.post(
    `/admin-api/catalog/import-api?product=${api.product}&filename=${api.product}.yaml`,
    {
      headers: { 'Content-Type': 'application/octet-stream', 'X-CSRF-Token': csrf },
      data: Buffer.from(api.yaml),
    },
  );
  expect(imported.status(), await imported.text()).toBe(201);

  const context = await browser.newContext({ baseURL: ownPortalURL });
  const dev = await context.newPage();
  await signIn(dev);
  const app = await createApplicationByApi(dev, api.application);
  await subscribe(dev, app.uuid, await productUuid(dev, api.title));

  await dev.goto(`/documentation/${api.product}#operation/${api.operation}`);
  await dev
    .getByTestId(`operation-details-${api.operation}`)
    .getByRole('button', { name: en.tryout.tryItOut })
    .click();
  const c = dev.getByRole('dialog', { name: new RegExp(en.tryout.consoleTitle.split(' ')[0]!) });
  await expect(c.getByLabel(en.tryout.clientId)).toContainText(api.application);
  return { console: c, context };
}

// The import adds a product and a category that other tests' counts would see: its own portal.
test.describe('on a portal of its own', () => {
  test.use({ baseURL: ownPortalURL });
  let portal: Awaited<ReturnType<typeof startOwnPortal>> | undefined;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    portal = await startOwnPortal();
  });
  test.afterAll(async () => {
    test.setTimeout(30_000);
    await portal?.close();
  });

  test('an administrator imports a document, sees a refused one’s problems, and opens the documentation', async ({
    page,
  }) => {
    await signIn(page, demoAdmin.email, demoAdmin.password);
    await declineCookies(page);
    await openConsoleSection(page, C.nav.importApi);
    await expect(page).toHaveURL(/\/admin\/import-api$/);
    await expect(page.getByRole('heading', { level: 1, name: M.title })).toBeVisible();

    // Nothing chosen: the form says what is missing, at its fields.
    await page.getByRole('button', { name: M.submit }).click();
    await expect(page.getByText(M.fileRequired)).toBeVisible();
    await expect(page.getByText(M.productRequired)).toBeVisible();

    await chooseFile(page, 'kennel.yaml', BROKEN);
    await page.getByLabel(M.product).fill('kennel');
    await page.getByRole('button', { name: M.submit }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'The document is not a valid OpenAPI' });
    await expect(refused).toBeVisible();
    const problems = refused.getByRole('list', { name: M.problemsLabel });
    await expect(problems.getByRole('listitem').filter({ hasText: 'line 16' })).toContainText(
      '/paths/~1dogs/get/responses/200/content/application~1json/schema/type',
    );
    await expectNoViolations(page, '/admin/import-api with problems');

    await chooseFile(page, 'kennel.yaml', GOOD);
    await page.getByLabel(M.category).fill('Pets');
    await page.getByRole('button', { name: M.submit }).click();
    const result = page.getByTestId('import-result');
    await expect(result).toContainText(format(M.created, { title: 'Kennel API', alias: 'kennel' }));
    await expect(result).toContainText(format(M.operations, { count: 1, groups: 1 }));
    await expect(result).toContainText(format(M.productCreated, { title: 'Kennel API', alias: 'kennel' }));
    await expect(refused).toBeHidden();
    await expect(result.getByRole('link', { name: M.openProduct })).toHaveAttribute(
      'href',
      '/apiProduct/kennel',
    );

    await result.getByRole('link', { name: M.openDocumentation }).click();
    await expect(page).toHaveURL(/\/documentation\/kennel$/);
    await expect(page.getByRole('heading', { level: 1, name: /Kennel API/ })).toBeVisible();
    await expect(page.getByTestId('operation')).toHaveCount(1);
    await expect(page.getByTestId('operation')).toContainText('/dogs');
  });

  test('an alias with a dot opens its documentation by its address, reloaded too; a file name gives one without', async ({
    page,
  }) => {
    await signIn(page, demoAdmin.email, demoAdmin.password);
    await declineCookies(page);
    await page.goto('/admin/import-api');
    // No alias asked for: the file name's, without its extension and dots (braze.com.yaml).
    await chooseFile(page, 'braze.com.yaml', GOOD.replace('Kennel API', 'Braze API'));
    await page.getByLabel(M.product).fill('braze');
    await page.getByRole('button', { name: M.submit }).click();
    const result = page.getByTestId('import-result');
    await expect(result).toContainText(format(M.created, { title: 'Braze API', alias: 'braze-com' }));

    // An alias with a dot, asked for: its address looks like a file's, and opens the page.
    await chooseFile(page, 'fec.yaml', GOOD.replace('Kennel API', 'FEC API'));
    await page.getByLabel(M.product).fill('fec.gov');
    await page.getByLabel(M.alias, { exact: true }).fill('fec.gov');
    await page.getByRole('button', { name: M.submit }).click();
    await expect(result).toContainText(format(M.created, { title: 'FEC API', alias: 'fec.gov' }));

    expect((await page.goto('/documentation/fec.gov'))?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: /FEC API/ })).toBeVisible();
    await expect(page.getByTestId('operation')).toContainText('/dogs');
    expect((await page.reload())?.status()).toBe(200);
    await expect(page.getByTestId('operation')).toContainText('/dogs');
    expect((await page.goto('/apiProduct/fec.gov'))?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: /FEC API/ })).toBeVisible();
  });

  // spinbot.net's shape: an API key in the query, also declared as a required query parameter.
  const KEYED = `openapi: 3.0.3
info:
  title: Spin API
  version: '1.0'
components:
  securitySchemes:
    key:
      type: apiKey
      in: query
      name: key
security:
  - key: []
paths:
  /rewrite:
    get:
      operationId: rewrite
      summary: Rewrite a text
      parameters:
        - { name: key, in: query, required: true, description: Your api key, schema: { type: string } }
        - { name: text, in: query, required: true, example: Hello, schema: { type: string } }
      responses:
        '200':
          description: The text, rewritten
          content:
            application/json:
              example: { text: Hello again }
`;

  test('an API key also declared as a parameter: the try-out sends the client id once and the sandbox answers', async ({
    page,
    browser,
  }) => {
    // The developer, in a browser of their own: an application subscribed to the new product.
    const { console: c, context } = await tryoutOfImported(page, browser, {
      yaml: KEYED,
      product: 'spin',
      title: 'Spin API',
      operation: 'rewrite',
      application: 'Spin Client',
    });
    // The key is the application's client id: not asked for, sent once.
    const request = c.getByTestId('tryout-request');
    await expect(request).toContainText(/\/sandbox\/spin\/rewrite\?text=Hello&key=[\w-]+/);
    expect((await request.innerText()).match(/key=/g)).toHaveLength(1);
    await expect(c.getByRole('combobox', { name: 'text' })).toBeVisible();
    await expect(c.getByRole('combobox', { name: 'key', exact: true })).toHaveCount(0);
    await c.getByRole('button', { name: en.tryout.send, exact: true }).click();
    await expect(c.getByTestId('tryout-status')).toHaveText('200 OK');
    await expect(c.getByTestId('tryout-response-body')).toContainText('Hello again');
    await context.close();
  });

  // An API key in a cookie, beside a cookie parameter: a page cannot set a Cookie header.
  const COOKIES = `openapi: 3.0.3
info:
  title: Crumb API
  version: '1.0'
components:
  securitySchemes:
    crumb:
      type: apiKey
      in: cookie
      name: crumb_key
security:
  - crumb: []
paths:
  /greeting:
    get:
      operationId: greeting
      summary: Greet in a language
      parameters:
        - { name: lang, in: cookie, required: true, example: en, schema: { type: string, enum: [en, fr] } }
      responses:
        '200':
          description: The greeting
          content:
            application/json:
              example: { text: Good morning }
`;

  test('an API key and a parameter in cookies: the try-out sends both, and the sandbox answers', async ({
    page,
    browser,
  }) => {
    const { console: c, context } = await tryoutOfImported(page, browser, {
      yaml: COOKIES,
      product: 'crumb',
      title: 'Crumb API',
      operation: 'greeting',
      application: 'Crumb Client',
    });
    // The cookie parameter is asked for (its example first); the key is the client id.
    const cookies = c.getByRole('group', {
      name: format(en.tryout.parametersIn, { location: en.tryout.location_cookie }),
    });
    await expect(cookies.getByRole('combobox', { name: 'lang' })).toHaveValue('en');
    await cookies.getByRole('combobox', { name: 'lang' }).selectOption('fr');
    const request = c.getByTestId('tryout-request');
    await expect(request).toContainText(/Cookie: lang=fr; crumb_key=[\w-]+/);
    await c.getByRole('button', { name: en.tryout.send, exact: true }).click();
    await expect(c.getByTestId('tryout-status')).toHaveText('200 OK');
    await expect(c.getByTestId('tryout-response-body')).toContainText('Good morning');
    // Set for the call only: none is left in the browser afterwards.
    expect(await context.cookies(`${ownPortalURL}/sandbox/crumb/greeting`)).toEqual(
      (await context.cookies(`${ownPortalURL}/`)).filter((cookie) => cookie.path === '/'),
    );
    await context.close();
  });
});

test('the import page is for API managers and administrators: a developer and a content editor are refused', async ({
  page,
  browser,
}) => {
  await signIn(page, demoDeveloper.email, demoDeveloper.password);
  await declineCookies(page);
  await expect(page.getByRole('link', { name: en.user.myProfile })).toBeVisible();
  await expect(consoleLink(page)).toHaveCount(0);
  await page.goto('/admin/import-api');
  await expect(page.getByTestId('console-refused')).toContainText(C.notForYou);

  // An API manager finds it in the console; a content editor is told whom it is for.
  for (const member of [PROVIDER_TEAM.api_manager, PROVIDER_TEAM.content_editor]) {
    const context = await browser.newContext();
    const other = await context.newPage();
    await signIn(other, member.email, member.password);
    await consoleLink(other).click();
    const entry = consoleNav(other).getByRole('link', { name: C.nav.importApi, exact: true });
    if (member.role === 'api_manager') {
      await entry.click();
      await expect(other.getByRole('heading', { level: 1, name: M.title })).toBeVisible();
    } else {
      await expect(consoleNav(other)).toBeVisible();
      await expect(entry).toHaveCount(0);
      await other.goto('/admin/import-api');
      await expect(other.getByTestId('console-refused')).toContainText(
        format(C.rolesOnly, { roles: `${C.roles.administrator}, ${C.roles.api_manager}` }),
      );
    }
    await context.close();
  }
});
