import type { Application, CertificateValidation } from '@portico/contracts/applications';
import { en } from '@portico/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificates } from './applications-certs.ts';
import { TestClient } from './http-client.ts';
import {
  GO_LIVE,
  clientCredentials,
  createApp,
  getApp,
  goLive,
  insertProduct,
  makeWorld,
  sandbox,
  subscription,
  type World,
} from './applications-fixtures.ts';
import { body, createOrg, upload, type JsonApiErrorBody } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

const M = en.applications;

// Demo content is left out: the tests insert the catalog rows they need (and start much faster).
let t: TestApp;
let w: World;
let plain: { uuid: string };
let psd2: { uuid: string };
beforeAll(async () => {
  t = await startTestApp({ LOGIN_RATE_LIMIT: '1000', IMPORT_CONTENT: 'false' });
  w = await makeWorld(t, new TestClient(t.baseUrl));
  plain = await insertProduct(t.app.db, {
    alias: 'live-accounts-v1',
    title: 'Live Accounts',
    // The sandbox scope set is wider than production's.
    scope: 'accounts:read sandbox:reset',
    scopeProduction: 'accounts:read',
    documentation: 'live-bank',
  });
  psd2 = await insertProduct(t.app.db, {
    alias: 'live-psd2-v1',
    title: 'Payment Initiation',
    scope: 'payments:write',
    scopeProduction: 'payments:write',
    psd2: true,
  });
});
afterAll(async () => {
  await t?.close();
});

async function validate(client: TestClient, app: Application) {
  const res = await client.get(`/phpsdk/certificates/${app.uuid}/validate?_format=json`);
  return { status: res.status, body: await body<CertificateValidation>(res) };
}

describe('PSD2 certificate check', () => {
  let org: { id: string };
  let a: Application;
  beforeAll(async () => {
    org = await createOrg(w.c.developer, 'Certificate Corp');
    a = await createApp(w.c.developer, org.id, { title: 'PSD2 app' });
  });

  it('needs no certificate without a PSD2 product', async () => {
    expect((await subscription(w.c.developer, 'subscribe', a.uuid, plain.uuid)).status).toBe(200);
    expect(await validate(w.c.developer, a)).toEqual({
      status: 200,
      body: { isValid: true, certRequired: false, message: M.certNotRequired },
    });
  });

  it('asks for a certificate when a product requires one', async () => {
    expect((await subscription(w.c.developer, 'subscribe', a.uuid, psd2.uuid)).status).toBe(200);
    expect(await validate(w.c.developer, a)).toEqual({
      status: 422,
      body: {
        isValid: false,
        certRequired: true,
        message: M.certMissing.replace('{{products}}', 'Payment Initiation'),
      },
    });
    // The go-live form is refused with the same message.
    const res = await goLive(w.c.developer, a.uuid);
    expect(res.status).toBe(422);
    expect((await body<JsonApiErrorBody>(res)).errors[0]!.title).toBe(
      M.certMissing.replace('{{products}}', 'Payment Initiation'),
    );
    expect((await getApp(w.c.developer, a.uuid)).applicationStatus).toBe('DEVELOPMENT');
  });

  it('refuses a certificate without the PSD2 QC statement, then an expired one', async () => {
    expect(
      (await upload(w.c.developer, org.id, 'field_documents', 'tls.crt', certificates.nonPsd2())).status,
    ).toBe(201);
    const first = await validate(w.c.developer, a);
    expect(first.status).toBe(422);
    expect(first.body).toEqual({
      isValid: false,
      certRequired: true,
      message: M.certInvalid
        .replace('{{products}}', 'Payment Initiation')
        .replace('{{problems}}', M.certNoQcStatement.replace('{{file}}', 'tls.crt')),
    });
    expect(
      (await upload(w.c.developer, org.id, 'field_documents', 'old-qwac.pem', certificates.expiredPsd2()))
        .status,
    ).toBe(201);
    const second = await validate(w.c.developer, a);
    expect(second.status).toBe(422);
    expect(second.body.message).toMatch(
      /^A valid PSD2 certificate is required for Payment Initiation\. old-qwac\.pem expired on \d{4}-\d{2}-\d{2}\. tls\.crt has no PSD2 QC statement/,
    );
  });

  it('accepts a valid PSD2 certificate', async () => {
    expect(
      (await upload(w.c.developer, org.id, 'field_documents', 'qwac.cer', certificates.psd2())).status,
    ).toBe(201);
    const res = await validate(w.c.developer, a);
    expect(res.status).toBe(200);
    expect(res.body.isValid).toBe(true);
    expect(res.body.certRequired).toBe(true);
    expect(res.body.message).toMatch(
      /^The certificate qwac\.cer is a valid PSD2 certificate until \d{4}-\d{2}-\d{2}\.$/,
    );
    expect((await goLive(w.c.developer, a.uuid)).status).toBe(201);
  });
});

describe('go-live form (spec A 3, 5)', () => {
  it('requires all eight fields and a valid e-mail', async () => {
    const a = await createApp(w.c.creator, w.org.id);
    expect((await subscription(w.c.creator, 'subscribe', a.uuid, plain.uuid)).status).toBe(200);
    const empty = await goLive(w.c.creator, a.uuid, {});
    expect(empty.status).toBe(422);
    expect((await body<JsonApiErrorBody>(empty)).errors.map((e) => [e.title, e.source?.pointer])).toEqual([
      [M.required, '/data/attributes/field_developer_type'],
      [M.required, '/data/attributes/field_first_name'],
      [M.required, '/data/attributes/field_last_name'],
      [M.required, '/data/attributes/field_company_name'],
      [M.required, '/data/attributes/field_address'],
      [M.required, '/data/attributes/field_email'],
      [M.required, '/data/attributes/field_site_url_download_location'],
      [M.required, '/data/attributes/field_use_cases'],
    ]);
    const email = await goLive(w.c.creator, a.uuid, { ...GO_LIVE, field_email: 'not-an-email' });
    expect((await body<JsonApiErrorBody>(email)).errors.map((e) => [e.title, e.source?.pointer])).toEqual([
      [M.invalidEmail, '/data/attributes/field_email'],
    ]);
    const type = await goLive(w.c.creator, a.uuid, { ...GO_LIVE, field_developer_type: 'Alien' });
    expect((await body<JsonApiErrorBody>(type)).errors[0]!.title).toBe(M.required);
    expect((await getApp(w.c.creator, a.uuid)).goLive.status).toBeNull();
  });

  it('needs an active subscription', async () => {
    const a = await createApp(w.c.creator, w.org.id);
    const res = await goLive(w.c.creator, a.uuid);
    expect(res.status).toBe(422);
    expect((await body<JsonApiErrorBody>(res)).errors[0]!.title).toBe(M.noSubscription);
  });

  it('records the request: title = app title + Unix seconds, the application PRODUCTION and pending', async () => {
    const a = await createApp(w.c.developer, w.org.id, { title: 'Wallet' });
    expect((await subscription(w.c.developer, 'subscribe', a.uuid, plain.uuid)).status).toBe(200);
    const before = Math.floor(Date.now() / 1000);
    const res = await goLive(w.c.developer, a.uuid);
    expect(res.status).toBe(201);
    const doc = await body<{ data: { type: string; id: string; attributes: Record<string, unknown> } }>(res);
    expect(doc.data.type).toBe('node--go_live_form');
    expect(doc.data.attributes).toMatchObject({ ...GO_LIVE, status: 'pending' });
    const [, seconds] = /^Wallet (\d+)$/.exec(String(doc.data.attributes.title))!;
    expect(Number(seconds)).toBeGreaterThanOrEqual(before);
    const after = await getApp(w.c.developer, a.uuid);
    expect(after.applicationStatus).toBe('PRODUCTION');
    expect(after.goLive).toMatchObject({ status: 'pending', requestId: doc.data.id, reason: null });
    expect(after.clientId.production).toBeNull();
    const again = await goLive(w.c.developer, a.uuid);
    expect(again.status).toBe(409);
    expect((await body<JsonApiErrorBody>(again)).errors[0]!.title).toBe(M.goLivePending);
  });

  it('keeps a title sent by the web app', async () => {
    const a = await createApp(w.c.developer, w.org.id, { title: 'Titled' });
    expect((await subscription(w.c.developer, 'subscribe', a.uuid, plain.uuid)).status).toBe(200);
    const res = await goLive(w.c.developer, a.uuid, { ...GO_LIVE, title: 'Titled1795000000' });
    expect((await body<{ data: { attributes: { title: string } } }>(res)).data.attributes.title).toBe(
      'Titled1795000000',
    );
  });
});

describe('provider review', () => {
  let a: Application;
  beforeAll(async () => {
    a = await createApp(w.c.developer, w.org.id, { title: 'Review me' });
    expect((await subscription(w.c.developer, 'subscribe', a.uuid, plain.uuid)).status).toBe(200);
    expect((await upload(w.c.creator, w.org.id, 'field_documents', 'terms.txt', 'We agree.')).status).toBe(
      201,
    );
  });

  interface RequestResource {
    id: string;
    attributes: {
      status: string;
      reason: string | null;
      decidedAt: string | null;
      form: Record<string, string>;
      application: { uuid: string; status: string; clientId: { production: string | null } } | null;
      organization: { uuid: string; documents: { fileName: string; url: string }[] };
      requestedBy: { email: string } | null;
      decidedBy: { email: string } | null;
    };
  }

  async function pendingFor(appUuid: string): Promise<RequestResource> {
    const res = await w.admin.get('/admin-api/go-live?status=pending&page[limit]=50');
    expect(res.status).toBe(200);
    const list = await body<{ data: RequestResource[] }>(res);
    const found = list.data.find((r) => r.attributes.application?.uuid === appUuid);
    expect(found).toBeDefined();
    return found!;
  }

  it('approves: PRODUCTION with a production client, production scopes, e-mails to the owners', async () => {
    expect((await goLive(w.c.developer, a.uuid)).status).toBe(201);
    const request = await pendingFor(a.uuid);
    expect(request.attributes.form).toMatchObject({
      firstName: 'Ada',
      email: 'ada@acme.example',
      developerType: 'Company',
    });
    expect(request.attributes.requestedBy?.email).toMatch(/^dev\.eloper/);
    const doc = request.attributes.organization.documents.find((d) => d.fileName === 'terms.txt')!;
    const download = await w.admin.get(new URL(doc.url).pathname);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('We agree.');
    expect((await w.c.creator.get(new URL(doc.url).pathname)).status).toBe(403);

    const res = await w.admin.send('POST', `/admin-api/go-live/${request.id}/approve`);
    expect(res.status).toBe(200);
    const decided = await body<{ data: RequestResource; meta: { mailed: number } }>(res);
    expect(decided.data.attributes.status).toBe('approved');
    expect(decided.data.attributes.decidedBy?.email).toMatch(/^ada\.admin/);
    expect(decided.data.attributes.decidedAt).toEqual(expect.any(String));
    expect(decided.meta.mailed).toBe(2);

    const live = await getApp(w.c.developer, a.uuid);
    expect(live.applicationStatus).toBe('PRODUCTION');
    expect(live.goLive.status).toBe('approved');
    const prod = live.clientId.production!;
    expect(prod).toMatch(/^[0-9a-f]{32}$/);
    expect(await t.app.oauthClients.allowedScopes(prod)).toEqual(['accounts:read']);
    expect(await t.app.oauthClients.allowedScopes(live.clientId.development!)).toEqual([
      'accounts:read',
      'sandbox:reset',
    ]);
    const token = await clientCredentials(t, prod, live.clientSecrets.production!);
    expect(token.status).toBe(200);
    expect(token.body.scope).toBe('accounts:read');
    expect((await sandbox(t, 'live-bank/accounts', token.body.access_token!)).status).toBe(200);
    expect((await getApp(w.c.financial, a.uuid)).clientSecrets.production).toBeNull();
    // The development credentials keep working after go-live, with the development scopes only
    // (docs/decisions/011); their calls count as DEVELOPMENT (applications-analytics.test.ts).
    const devToken = await clientCredentials(t, live.clientId.development!, live.clientSecret!);
    expect(devToken.status).toBe(200);
    expect(devToken.body.scope?.split(' ').sort()).toEqual(['accounts:read', 'sandbox:reset']);
    expect((await sandbox(t, 'live-bank/accounts', devToken.body.access_token!)).status).toBe(200);

    const outbox = await t.app.db
      .selectFrom('outbox')
      .selectAll()
      .where('subject', '=', M.approvedSubject.replace('{{application}}', 'Review me'))
      .execute();
    expect(outbox.map((m) => m.to_address.split('.')[0]).sort()).toEqual(['carla', 'otto']);
    expect(outbox[0]!.text_body).toContain(prod);

    const twice = await w.admin.send('POST', `/admin-api/go-live/${request.id}/approve`);
    expect(twice.status).toBe(409);
    expect((await body<JsonApiErrorBody>(twice)).errors[0]!.title).toBe(M.reviewDecided);
  });

  it("gives the production client the development client's authentication method (issue 28)", async () => {
    const b = await createApp(w.c.developer, w.org.id, {
      title: 'Mutual TLS app',
      field_client_auth_method: 'tls_client_auth',
      field_client_tls_subject_dn: 'CN=tpp.example,O=Acme,C=NL',
    });
    expect((await subscription(w.c.developer, 'subscribe', b.uuid, plain.uuid)).status).toBe(200);
    expect((await goLive(w.c.developer, b.uuid)).status).toBe(201);
    const request = await pendingFor(b.uuid);
    expect((await w.admin.send('POST', `/admin-api/go-live/${request.id}/approve`)).status).toBe(200);
    const live = await getApp(w.c.developer, b.uuid);
    const prod = await t.app.db
      .selectFrom('oauth_clients')
      .select(['auth_method', 'tls_subject_dn'])
      .where('client_id', '=', live.clientId.production!)
      .executeTakeFirstOrThrow();
    expect(prod).toEqual({ auth_method: 'tls_client_auth', tls_subject_dn: 'CN=tpp.example,O=Acme,C=NL' });
  });

  it('rejects with a reason: back to DEVELOPMENT, the reason shown, a new request possible', async () => {
    const b = await createApp(w.c.developer, w.org.id, { title: 'Not yet' });
    expect((await subscription(w.c.developer, 'subscribe', b.uuid, plain.uuid)).status).toBe(200);
    expect((await goLive(w.c.developer, b.uuid)).status).toBe(201);
    const request = await pendingFor(b.uuid);
    const empty = await w.admin.send(
      'POST',
      `/admin-api/go-live/${request.id}/reject`,
      { reason: ' ' },
      'application/json',
    );
    expect(empty.status).toBe(422);
    expect((await body<JsonApiErrorBody>(empty)).errors.map((e) => [e.title, e.source?.pointer])).toEqual([
      [M.reasonRequired, '/reason'],
    ]);
    const reason = 'Please describe how you store customer data.';
    const res = await w.admin.send(
      'POST',
      `/admin-api/go-live/${request.id}/reject`,
      { reason },
      'application/json',
    );
    expect(res.status).toBe(200);
    const rejected = await getApp(w.c.financial, b.uuid);
    expect(rejected.applicationStatus).toBe('DEVELOPMENT');
    expect(rejected.goLive).toMatchObject({ status: 'rejected', reason, requestId: request.id });
    expect(rejected.clientId.production).toBeNull();
    const mails = await t.app.db
      .selectFrom('outbox')
      .selectAll()
      .where('subject', '=', M.rejectedSubject.replace('{{application}}', 'Not yet'))
      .execute();
    expect(mails).toHaveLength(2);
    expect(mails[0]!.text_body).toContain(reason);
    // Editable again, and go-live may be requested again.
    const edit = await w.c.developer.send('PATCH', `/jsonapi/node/application/${b.uuid}/edit_app_custom`, {
      data: { type: 'node--application', attributes: { title: 'Now ready' } },
    });
    expect(edit.status).toBe(200);
    expect((await goLive(w.c.developer, b.uuid)).status).toBe(201);
    const all = await body<{ data: RequestResource[] }>(
      await w.admin.get('/admin-api/go-live?page[limit]=50'),
    );
    const mine = all.data
      .filter((r) => r.attributes.application?.uuid === b.uuid)
      .map((r) => r.attributes.status);
    expect(mine).toEqual(['pending', 'rejected']);
    expect(
      (await w.admin.send('POST', `/admin-api/go-live/${request.id}/reject`, { reason }, 'application/json'))
        .status,
    ).toBe(409);
  });

  it('answers unknown requests with 404 and refuses bad status filters', async () => {
    expect((await w.admin.send('POST', '/admin-api/go-live/999999/approve')).status).toBe(404);
    expect((await w.admin.get('/admin-api/go-live/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await w.admin.get('/admin-api/go-live?status=maybe')).status).toBe(400);
  });
});
