import { createHash, randomBytes } from 'node:crypto';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import de from '../src/locales/de/pages.json' with { type: 'json' };
import deMails from '../src/locales/de/emails.json' with { type: 'json' };
import deErrors from '../src/locales/de/errors.json' with { type: 'json' };
import { insertProduct } from './applications-fixtures.ts';
import { TestClient } from './http-client.ts';
import {
  body,
  createOrg,
  createUser,
  invite,
  orgDocument,
  signedInUser,
  type JsonApiErrorBody,
} from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * Issue 30, the server in a second language: the identity provider's and the sandbox bank's
 * pages follow ui_locales, the language cookie or Accept-Language; e-mails follow the
 * recipient's preferred_langcode; the API's errors follow the request; English stays the
 * catalogue's wording byte for byte.
 */
const ID = en.identity;
const SB = en.sandboxAuth;
const GERMAN = { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ LOGIN_RATE_LIMIT: '1000' });
});
afterAll(async () => {
  await t?.close();
});

/** The portal's login parameters as a browser with `headers` gets them, then the provider's page. */
async function idpPage(browser: TestClient, override: Record<string, string | null> = {}) {
  const info = (await (await browser.get('/openid-connect/authorization-info/generic')).json()) as {
    baseUrl: string;
    parameters: Record<string, string>;
  };
  const parameters = { ...info.parameters };
  for (const [name, value] of Object.entries(override)) {
    if (value === null) delete parameters[name];
    else parameters[name] = value;
  }
  const { res, url } = await browser.follow(`${info.baseUrl}?${new URLSearchParams(parameters)}`);
  return {
    status: res.status,
    html: await res.text(),
    path: new URL(url).pathname,
    parameters: info.parameters,
  };
}

async function lastMail(email: string) {
  return t.app.db
    .selectFrom('outbox')
    .select(['subject', 'text_body'])
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
}

describe("the identity provider's pages", () => {
  it('are English by default, with the catalogue wording and lang="en"', async () => {
    const page = await idpPage(new TestClient(t.baseUrl));
    expect(page.status).toBe(200);
    expect(page.html).toContain('<html lang="en">');
    expect(page.html).toContain(`<h1>${ID.signInTitle}</h1>`);
    expect(page.html).toContain(ID.forgotPasswordLink);
  });

  it('are German for a German Accept-Language: the portal passes ui_locales=de', async () => {
    const page = await idpPage(new TestClient(t.baseUrl, GERMAN));
    expect(page.parameters.ui_locales).toBe('de');
    expect(page.html).toContain('<html lang="de">');
    expect(page.html).toContain(`<h1>${de.identity.signInTitle}</h1>`);
    expect(page.html).toContain(de.identity.forgotPasswordLink);
    expect(page.html).not.toContain(ID.forgotPasswordLink);
  });

  it('follow ui_locales over Accept-Language, and the language cookie without ui_locales', async () => {
    const asked = await idpPage(new TestClient(t.baseUrl, { 'accept-language': 'en' }), {
      ui_locales: 'fr-CA de en',
    });
    expect(asked.html).toContain('<html lang="de">');
    expect(asked.html).toContain(de.identity.passwordLabel);

    const cookie = new TestClient(t.baseUrl, { 'accept-language': 'en' });
    cookie.cookies.set('portico_lang', 'de');
    const chosen = await idpPage(cookie, { ui_locales: null });
    expect(chosen.html).toContain('<html lang="de">');
    expect(chosen.html).toContain(`<h1>${de.identity.signInTitle}</h1>`);
  });

  it('sign up in German: German errors on the page, a German verification mail, the account keeps German', async () => {
    const browser = new TestClient(t.baseUrl, GERMAN);
    const page = await idpPage(browser, { screen: 'signup' });
    expect(page.html).toContain(`<h1>${de.identity.signUpTitle}</h1>`);
    const signup = `${page.path}/signup`;
    const short = await browser.postForm(signup, {
      firstName: 'Greta',
      lastName: 'Deutsch',
      email: 'greta.deutsch@example.com',
      password: 'kurz',
    });
    expect(short.status).toBe(400);
    const shortHtml = await short.text();
    expect(shortHtml).toContain('<html lang="de">');
    expect(shortHtml).toContain(de.identity.passwordTooShort);

    const created = await browser.postForm(signup, {
      firstName: 'Greta',
      lastName: 'Deutsch',
      email: 'greta.deutsch@example.com',
      password: 'lang-genug-2026',
    });
    expect(created.status).toBe(303);
    const user = await t.app.db
      .selectFrom('users')
      .select('preferred_langcode')
      .where('email', '=', 'greta.deutsch@example.com')
      .executeTakeFirstOrThrow();
    expect(user.preferred_langcode).toBe('de');
    const mail = await lastMail('greta.deutsch@example.com');
    expect(mail.subject).toBe(format(deMails.identity.verifyMailSubject, { site: de.site.title }));
    expect(mail.text_body).toMatch(/^Guten Tag Greta Deutsch,\n\nbitte bestätigen Sie/);
    expect(mail.text_body).toMatch(/\/idp\/verify\/\S+/);
  });

  it("the reset mail is in the account's language, else English word for word", async () => {
    await createUser(t, 'english.reader@example.com');
    const german = await createUser(t, 'german.reader@example.com');
    await t.app.db
      .updateTable('users')
      .set({ preferred_langcode: 'de' })
      .where('id', '=', german.id)
      .execute();
    // The page is in the visitor's language; the mail in the account's.
    for (const email of ['english.reader@example.com', 'german.reader@example.com']) {
      const res = await new TestClient(t.baseUrl).postForm('/idp/reset', { email });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(ID.resetSent);
    }
    const english = await lastMail('english.reader@example.com');
    expect(english.subject).toBe(format(ID.resetMailSubject, { site: en.site.title }));
    const link = /https?:\/\/\S+\/idp\/reset\/\S+/.exec(english.text_body)![0];
    expect(english.text_body).toBe(format(ID.resetMailText, { name: 'english reader', link }));
    const germanMail = await lastMail('german.reader@example.com');
    expect(germanMail.subject).toBe(format(deMails.identity.resetMailSubject, { site: de.site.title }));
    expect(germanMail.text_body).toContain('Falls Sie dies nicht angefordert haben');

    // The link's page in the browser's language.
    const opened = await new TestClient(t.baseUrl, GERMAN).get(
      new URL(/https?:\/\/\S+/.exec(germanMail.text_body)![0]).pathname,
    );
    const html = await opened.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain(de.identity.changePasswordButton);
  });

  it("a wrong password is refused in the page's language", async () => {
    await createUser(t, 'wrong.password@example.com');
    const browser = new TestClient(t.baseUrl, GERMAN);
    const page = await idpPage(browser);
    const posted = await browser.postForm(`${page.path}/login`, {
      email: 'wrong.password@example.com',
      password: 'not-the-password',
    });
    expect(posted.status).toBe(401);
    expect(await posted.text()).toContain(de.identity.invalidCredentials);
  });
});

describe("the sandbox bank's pages", () => {
  const REDIRECT_URI = 'https://tpp.example/callback';
  let clientId: string;
  beforeAll(async () => {
    await insertProduct(t.app.db, { alias: 'i18n-bank', scope: 'accounts:read', documentation: 'i18n-bank' });
    ({ clientId } = await t.app.oauthClients.createClient({
      environment: 'DEVELOPMENT',
      grantTypes: ['authorization_code'],
      redirectUris: [REDIRECT_URI],
      scopes: ['accounts:read'],
    }));
  });

  async function authorize(browser: TestClient, extra: Record<string, string> = {}) {
    const verifier = randomBytes(32).toString('base64url');
    const { res, url } = await browser.follow(
      `/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
        scope: 'accounts:read',
        state: randomBytes(8).toString('hex'),
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        ...extra,
      })}`,
    );
    return { html: await res.text(), path: new URL(url).pathname };
  }

  it('sign-in and consent are German with ui_locales=de, and English by default', async () => {
    const english = await authorize(new TestClient(t.baseUrl));
    expect(english.html).toContain('<html lang="en">');
    expect(english.html).toContain(`<h1>${SB.signInTitle}</h1>`);

    const browser = new TestClient(t.baseUrl, { 'accept-language': 'en' });
    const signIn = await authorize(browser, { ui_locales: 'de-AT' });
    expect(signIn.html).toContain('<html lang="de">');
    expect(signIn.html).toContain(`<h1>${de.sandboxAuth.signInTitle}</h1>`);
    expect(signIn.html).toContain(de.sandboxAuth.note);

    const posted = await browser.postForm(`${signIn.path}/login`, {
      username: 'alice.customer',
      password: 'Sandbox#2026',
    });
    expect(posted.status).toBe(303);
    const consent = await browser.follow(posted.headers.get('location')!);
    const html = await consent.res.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain(`<h1>${de.sandboxAuth.consentTitle}</h1>`);
    expect(html).toContain(de.sandboxAuth.allowButton);
    expect(html).toContain('<code>accounts:read</code>');
  });

  it('follow a German Accept-Language without ui_locales', async () => {
    const page = await authorize(new TestClient(t.baseUrl, GERMAN));
    expect(page.html).toContain('<html lang="de">');
    expect(page.html).toContain(de.sandboxAuth.usernameLabel);
  });
});

describe('e-mails of the other domains', () => {
  it("an invitation is in the invitee's language when they have an account, else English", async () => {
    const owner = await signedInUser(t, 'inviting.owner@example.com');
    const org = await createOrg(owner, 'Zweisprachig GmbH');
    const german = await createUser(t, 'eingeladen@example.com');
    await t.app.db
      .updateTable('users')
      .set({ preferred_langcode: 'de' })
      .where('id', '=', german.id)
      .execute();
    expect((await invite(owner, org.id, 'eingeladen@example.com', ['organization-developer'])).status).toBe(
      201,
    );
    expect((await invite(owner, org.id, 'nobody.yet@example.com', ['organization-developer'])).status).toBe(
      201,
    );
    const germanMail = await lastMail('eingeladen@example.com');
    expect(germanMail.subject).toBe('Sie sind eingeladen, Zweisprachig GmbH beizutreten');
    expect(germanMail.text_body).toContain('hat Sie eingeladen, der Organisation Zweisprachig GmbH');
    const englishMail = await lastMail('nobody.yet@example.com');
    expect(englishMail.subject).toBe(
      format(en.organizations.inviteSubject, { organization: 'Zweisprachig GmbH' }),
    );
  });
});

describe('discovery', () => {
  it("names the languages of both servers' pages (ui_locales_supported)", async () => {
    for (const issuer of ['/idp', '/oauth']) {
      const res = await fetch(`${t.baseUrl}${issuer}/.well-known/openid-configuration`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { ui_locales_supported?: string[] }).ui_locales_supported).toEqual([
        'en',
        'de',
      ]);
    }
  });
});

describe("the API's errors", () => {
  it('are German for a German request and the catalogue English otherwise', async () => {
    const path = '/api/support_ticket';
    const englishRes = await new TestClient(t.baseUrl).get(path);
    expect(englishRes.status).toBe(401);
    expect(englishRes.headers.get('vary')).toMatch(/Accept-Language/);
    const englishBody = await englishRes.text();
    expect(JSON.parse(englishBody).errors[0].title).toBe('You must be logged in to do this.');
    const germanRes = await new TestClient(t.baseUrl, GERMAN).get(path);
    expect(germanRes.status).toBe(401);
    expect(germanRes.headers.get('content-language')).toBe('de');
    expect((await body<JsonApiErrorBody>(germanRes)).errors[0]).toMatchObject({
      title: deErrors.server.unauthorized,
      detail: deErrors.server.unauthorized,
    });
  });

  it("a validation error in the account's language, or the cookie's, or Accept-Language's", async () => {
    const M = en.organizations;
    const owner = await signedInUser(t, 'form.filler@example.com');
    const post = (headers: Record<string, string> = {}) =>
      owner.request('/jsonapi/group/organization', {
        method: 'POST',
        headers: { 'content-type': 'application/vnd.api+json', 'x-csrf-token': owner.csrfToken, ...headers },
        body: JSON.stringify(orgDocument('x'.repeat(256))),
      });
    const english = await post();
    expect(english.status).toBe(422);
    expect((await body<JsonApiErrorBody>(english)).errors[0]).toMatchObject({
      title: M.titleTooLong,
      source: { pointer: '/data/attributes/label' },
    });
    const german = await post(GERMAN);
    expect(german.status).toBe(422);
    expect((await body<JsonApiErrorBody>(german)).errors[0]).toMatchObject({
      title: deErrors.organizations.titleTooLong,
      source: { pointer: '/data/attributes/label' },
    });
    owner.cookies.set('portico_lang', 'de');
    const byCookie = await post({ 'accept-language': 'en' });
    expect((await body<JsonApiErrorBody>(byCookie)).errors[0]?.title).toBe(
      deErrors.organizations.titleTooLong,
    );
    owner.cookies.delete('portico_lang');

    // The account's own language wins over the browser's.
    await t.app.db
      .updateTable('users')
      .set({ preferred_langcode: 'de', updated_at: new Date() })
      .where('email', '=', 'form.filler@example.com')
      .execute();
    const account = await post({ 'accept-language': 'en' });
    expect((await body<JsonApiErrorBody>(account)).errors[0]?.title).toBe(
      deErrors.organizations.titleTooLong,
    );
    // Nothing was written by any of them.
    const rows = await t.app.db
      .selectFrom('organizations')
      .select('id')
      .where('title', '=', 'x'.repeat(256))
      .execute();
    expect(rows).toHaveLength(0);
  });

  it("the provider console's refusals are German for a German request, English otherwise", async () => {
    const manager = await signedInUser(t, 'console.manager@example.com', { roles: ['api_manager'] });
    const create = () =>
      manager.send(
        'POST',
        '/admin-api/catalog/products',
        { alias: 'Kein Alias', title: 'Kredit-API' },
        'application/json',
      );
    const english = await create();
    expect(english.status).toBe(400);
    expect((await body<JsonApiErrorBody>(english)).errors[0]?.title).toBe(
      en.console.products.errors.aliasInvalid,
    );
    manager.cookies.set('portico_lang', 'de');
    const german = await create();
    expect(german.status).toBe(400);
    expect(german.headers.get('content-language')).toBe('de');
    expect((await body<JsonApiErrorBody>(german)).errors[0]?.title).toBe(
      deErrors.console.products.errors.aliasInvalid,
    );
    const { rows } = await sql`select id from api_products where title = 'Kredit-API'`.execute(t.app.db);
    expect(rows).toHaveLength(0);

    // With a placeholder: the dashboard's range, filled with the English message's value.
    const admin = await signedInUser(t, 'console.admin@example.com', { admin: true });
    admin.cookies.set('portico_lang', 'de');
    const range = await admin.get('/admin-api/dashboard?from=2020-01-01&to=2026-01-01');
    expect(range.status).toBe(400);
    const title = (await body<JsonApiErrorBody>(range)).errors[0]?.title;
    expect(title).toMatch(/^Der Zeitraum darf höchstens \d+ Tage umfassen\.$/);
    expect(title).toBe(
      format(deErrors.console.dashboard.tooLong, { max: /\d+/.exec(title ?? '')?.[0] ?? '' }),
    );
  });

  it("zod's own messages of a failed check are said by zod's German locale; the schema's own stay with the files", async () => {
    const manager = await signedInUser(t, 'zod.manager@example.com', { roles: ['api_manager'] });
    const create = (fields: Record<string, unknown>) =>
      manager.send(
        'POST',
        '/admin-api/catalog/products',
        { alias: 'zod-check', title: 'Zod', ...fields },
        'application/json',
      );
    const wrongType = await create({ weight: 'heavy' });
    expect(wrongType.status).toBe(400);
    const english = (await body<JsonApiErrorBody>(wrongType)).errors[0];
    expect(english?.title).toBe('Invalid input: expected number, received string');
    expect(english?.source?.pointer).toBe('/weight');

    manager.cookies.set('portico_lang', 'de');
    const german = await create({ weight: 'heavy' });
    expect(german.status).toBe(400);
    expect(german.headers.get('content-language')).toBe('de');
    const error = (await body<JsonApiErrorBody>(german)).errors[0];
    expect(error?.title).toBe('Ungültige Eingabe: erwartet Zahl, erhalten string');
    expect(error?.detail).toBe(error?.title);
    expect(error?.source?.pointer).toBe('/weight');
    const tooLong = await create({ description: 'x'.repeat(200_000) });
    expect((await body<JsonApiErrorBody>(tooLong)).errors[0]?.title).toMatch(
      /^Zu groß: erwartet, dass string <=\d+ Zeichen hat$/,
    );
    // A message the schema gives itself is the catalogue's, translated by the errors files.
    const alias = await create({ alias: 'Kein Alias' });
    expect((await body<JsonApiErrorBody>(alias)).errors[0]?.title).toBe(
      deErrors.console.products.errors.aliasInvalid,
    );
    // A check's own message that is not a whole error (a feature's icon, inside '<path>: …').
    const icon = await create({ features: [{ title: 'Schnell', icon: 'javascript:alert(1)' }] });
    expect(icon.status).toBe(400);
    const iconError = (await body<JsonApiErrorBody>(icon)).errors[0];
    expect(`${iconError?.title} ${iconError?.detail}`).toContain(deErrors.api.httpsOrPath);
    expect(`${iconError?.title} ${iconError?.detail}`).not.toContain('must be an https URL');
    const { rows } = await sql`select id from api_products where alias = 'zod-check'`.execute(t.app.db);
    expect(rows).toHaveLength(0);

    // Inside a composed text ('<path>: …' of an organization's document, a 422).
    const owner = await signedInUser(t, 'zod.owner@example.com');
    owner.cookies.set('portico_lang', 'de');
    const org = await owner.send('POST', '/jsonapi/group/organization', {
      data: { ...orgDocument('Zod Org').data, relationships: { field_documents: { data: 'none' } } },
    });
    expect(org.status).toBe(422);
    expect((await body<JsonApiErrorBody>(org)).errors[0]?.title).toMatch(
      /^data\.relationships\.field_documents\.data: Ungültige Eingabe: erwartet \S+, erhalten string$/,
    );
  });

  it("the site search's own parameter checks answer in the reader's language", async () => {
    const search = (query: string, headers: Record<string, string> = {}) =>
      fetch(`${t.baseUrl}/phpsdk/search?${query}`, { headers });
    const tooLong = await search(`q=${'x'.repeat(201)}`, GERMAN);
    expect(tooLong.status).toBe(400);
    expect(await tooLong.text()).toContain(format(deErrors.api.searchQueryTooLong, { max: '200' }));
    const page = await search('q=api&pageSize=500', GERMAN);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain(
      format(deErrors.api.numberOutOfRange, { name: 'pageSize', min: '1', max: '50' }),
    );
    const english = await search('q=api&pageSize=500');
    expect(await english.text()).toContain('pageSize must be a whole number from 1 to 50.');
  });

  it('fills placeholders in the translation with the values of the English message', async () => {
    const owner = await signedInUser(t, 'place.holder@example.com', { verified: false });
    const res = await owner.request('/user/verification-mail', {
      method: 'POST',
      headers: { 'x-csrf-token': owner.csrfToken, ...GERMAN },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { message: string }).message).toBe(
      format(deErrors.identity.verificationSent, { email: 'place.holder@example.com' }),
    );
  });
});
