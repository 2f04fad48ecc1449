import type { Application } from '@portico/contracts/applications';
import { en } from '@portico/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importContent } from '../src/content/import-content.ts';
import { importers } from '../src/content/importers.ts';
import { clientCredentials, sandbox } from './applications-fixtures.ts';
import { TestClient, signIn } from './http-client.ts';
import { body, type OrgResource } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** content/organizations.yaml, imported with the rest of the demo content on start. */
describe('demo organizations', () => {
  let t: TestApp;
  let dev: TestClient;
  beforeAll(async () => {
    t = await startTestApp({ LOGIN_RATE_LIMIT: '1000' });
    dev = new TestClient(t.baseUrl);
    expect((await signIn(dev, 'dev@portico.local', 'DevPortal#2026')).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  const reimport = () =>
    importContent(importers, {
      db: t.app.db,
      contentDir: t.config.contentDir,
      log: t.app.log,
      publicUrl: t.config.publicUrl,
      secretBox: t.app.secretBox,
    });

  async function demoOrganizations(): Promise<OrgResource[]> {
    const res = await dev.get('/jsonapi/group/organization');
    expect(res.status).toBe(200);
    const orgs = (await body<{ data: OrgResource[] }>(res)).data;
    return orgs.filter((o) => o.attributes.label === 'Northwind Fintech');
  }

  it('gives the demo developer an organization whose application calls the sandbox', async () => {
    const [org] = await demoOrganizations();
    expect(org).toBeDefined();
    const apps = await body<{ data: Application[] }>(await dev.get('/phpsdk/organization/apps'));
    const app = apps.data.find((a) => a.title === 'Budget Buddy');
    expect(app).toMatchObject({
      applicationStatus: 'DEVELOPMENT',
      allowedGrantTypes: ['authorization_code', 'client_credentials'],
      oauthRedirectUri: ['https://budget-buddy.example/oauth/callback'],
    });
    expect(app?.subscriptions.map((s) => s.title)).toEqual(['Accounts API']);

    // Its development credentials are real: a token with the product's scope, accepted by the API.
    const full = await body<{ data: { meta: { application: Application } } }>(
      await dev.get(`/jsonapi/node/application/${app!.uuid}`),
    );
    const { clientId, clientSecret } = full.data.meta.application;
    const token = await clientCredentials(t, clientId.development!, clientSecret!);
    expect(token.status).toBe(200);
    expect(token.body.scope).toBe('accounts:read');
    expect((await sandbox(t, 'accounts-v1/accounts', token.body.access_token!)).status).toBe(200);
  });

  it('has an application whose Go live reaches the PSD2 certificate check (spec A 4)', async () => {
    const apps = await body<{ data: Application[] }>(await dev.get('/phpsdk/organization/apps'));
    const app = apps.data.find((a) => a.title === 'Split Pay');
    expect(app).toMatchObject({
      applicationStatus: 'DEVELOPMENT',
      allowedGrantTypes: ['authorization_code'],
    });
    expect(app?.subscriptions.map((s) => [s.title, s.psd2CertificateRequired])).toEqual([
      ['Payments API', true],
    ]);
    // The organization has no certificate yet: the check asks for one.
    const check = await dev.get(`/phpsdk/certificates/${app!.uuid}/validate?_format=json`);
    expect(check.status).toBe(422);
    expect(await body(check)).toEqual({
      isValid: false,
      certRequired: true,
      message: en.applications.certMissing.replace('{{products}}', 'Payments API'),
    });
  });

  it("names the application's products and their documentations in the reader's language (decision 063)", async () => {
    type Doc = {
      data: { id: string; meta: { application: Application } };
      included: { type: string; id: string; attributes: { title: string } }[];
    };
    const titlesOf = (a: Application) =>
      a.subscriptions.map((s) => [s.title, s.apiEndpoints.map((e) => e.title)]);
    // Everything but the titles is the same in every language.
    const untitled = (a: Application) =>
      a.subscriptions.map((s) => ({
        ...s,
        title: '',
        apiEndpoints: s.apiEndpoints.map((e) => ({ ...e, title: '' })),
      }));
    const list = async (query: string) => {
      const res = await dev.get(`/phpsdk/organization/apps${query}`);
      expect(res.status).toBe(200);
      return (await body<{ data: Application[] }>(res)).data.find((a) => a.title === 'Budget Buddy')!;
    };
    const english = await list('');
    const german = await list('?langcode=de');
    // accounts-api-v1 and its documentations accounts-v1 and get-token (content/catalog/*.yaml).
    expect(titlesOf(english)).toEqual([['Accounts API', ['Accounts API', 'Get Token API']]]);
    expect(titlesOf(german)).toEqual([['Konten-API', ['Konten-API', 'Get Token API']]]);
    expect(untitled(german)).toEqual(untitled(english));
    expect(await list('?langcode=en')).toEqual(english);

    const include = 'include=field_application_subscriptions,field_application_subscriptions.field_endpoints';
    const one = async (query: string) => {
      const res = await dev.get(`/jsonapi/node/application/${english.uuid}?${include}${query}`);
      expect(res.status).toBe(200);
      const text = await res.text();
      return { text, doc: JSON.parse(text) as Doc };
    };
    const plain = await one('');
    const de = await one('&langcode=de');
    expect(titlesOf(plain.doc.data.meta.application)).toEqual(titlesOf(english));
    expect(titlesOf(de.doc.data.meta.application)).toEqual(titlesOf(german));
    const includedTitles = (d: Doc) => d.included.map((r) => [r.type, r.attributes.title]);
    expect(includedTitles(de.doc)).toEqual([
      ['node--api_product', 'Konten-API'],
      ['node--api_documentation', 'Konten-API'],
      ['node--api_documentation', 'Get Token API'],
    ]);
    expect(includedTitles(plain.doc)).toEqual([
      ['node--api_product', 'Accounts API'],
      ['node--api_documentation', 'Accounts API'],
      ['node--api_documentation', 'Get Token API'],
    ]);
    expect(de.doc.included.map((r) => r.id)).toEqual(plain.doc.included.map((r) => r.id));
    // English is the same answer, asked for or not.
    expect((await one('&langcode=en')).text).toBe(plain.text);

    // A subscription change answers with the application as the page's reads do: in its language.
    const resubscribed = await dev.send(
      'POST',
      '/api/application?langcode=de',
      { type: 'subscribe', application: english.uuid, product: english.subscriptions[0]!.uuid },
      'application/json',
    );
    expect(resubscribed.status).toBe(200);
    expect(titlesOf((await body<{ data: Application }>(resubscribed)).data)).toEqual(titlesOf(german));

    // A language the portal does not have is a 400 naming the parameter, on both reads.
    for (const url of [
      `/jsonapi/node/application/${english.uuid}?langcode=xx`,
      '/phpsdk/organization/apps?langcode=xx',
    ]) {
      const bad = await dev.get(url);
      expect(bad.status).toBe(400);
      const error = (await body<{ errors: { title: string; source?: { parameter?: string } }[] }>(bad))
        .errors[0]!;
      expect(error.title).toBe('langcode must be one of en, de.');
      expect(error.source?.parameter).toBe('langcode');
    }
  });

  it('is imported once: a later start neither duplicates it nor brings back a deleted one', async () => {
    await reimport();
    const [org, duplicate] = await demoOrganizations();
    expect(org).toBeDefined();
    expect(duplicate).toBeUndefined();

    const res = await dev.send('DELETE', `/jsonapi/group/organization/${org!.id}/delete_custom`);
    expect(res.status).toBe(204);
    await reimport();
    expect(await demoOrganizations()).toEqual([]);
  });
});
