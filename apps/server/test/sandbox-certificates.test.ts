import { X509Certificate, type webcrypto } from 'node:crypto';
import type { Application, CertificateValidation } from '@portico/contracts/applications';
import type { CertificateListDocument, CertificateResource } from '@portico/contracts/certificates';
import { en } from '@portico/contracts/messages';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateExtensions } from '../src/modules/applications/certificate.ts';
import {
  parseQcStatements,
  PSD2_QC_STATEMENT_OID,
  QC_STATEMENTS_OID,
  QC_TYPE_ESEAL,
  QC_TYPE_WEB,
} from '../src/modules/certificates/psd2-statement.ts';
import { x509 } from '../src/modules/certificates/x509.ts';
import {
  appDocument,
  clientCredentials,
  createApp,
  insertProduct,
  makeWorld,
  subscription,
  type World,
} from './applications-fixtures.ts';
import { TestClient } from './http-client.ts';
import { body, createOrg, signedInUser, type JsonApiErrorBody } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

const M = en.certificates;
const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const RSA = {
  name: 'RSASSA-PKCS1-v1_5',
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: 'SHA-256',
} as const;

/** A CSR made as a TPP's tooling (or the portal's browser page) makes one. */
async function makeCsr(
  name = 'CN=Budget Buddy TPP, O=Budget Buddy Ltd',
  algorithm: webcrypto.RsaHashedKeyGenParams | webcrypto.EcKeyGenParams = EC,
): Promise<string> {
  const keys = (await crypto.subtle.generateKey(algorithm, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name,
    keys,
    signingAlgorithm: algorithm.name === 'ECDSA' ? { name: 'ECDSA', hash: 'SHA-256' } : algorithm,
  });
  return csr.toString('pem');
}

let t: TestApp;
let w: World;
let accounts: { uuid: string };
let payments: { uuid: string };
beforeAll(async () => {
  t = await startTestApp({ LOGIN_RATE_LIMIT: '1000', IMPORT_CONTENT: 'false' });
  w = await makeWorld(t, new TestClient(t.baseUrl));
  accounts = await insertProduct(t.app.db, {
    alias: 'cert-accounts-v1',
    title: 'Accounts API',
    scope: 'accounts:read',
    scopeProduction: 'accounts:read',
  });
  payments = await insertProduct(t.app.db, {
    alias: 'cert-payments-v1',
    title: 'Payments API',
    scope: 'payments:read payments:write',
    scopeProduction: 'payments:read payments:write',
    psd2: true,
  });
  await sql`update api_products set psd2_roles = ${['PSP_AI']} where uuid = ${accounts.uuid}`.execute(
    t.app.db,
  );
  await sql`update api_products set psd2_roles = ${['PSP_PI']} where uuid = ${payments.uuid}`.execute(
    t.app.db,
  );
});
afterAll(async () => {
  await t?.close();
});

const certsUrl = (org: string) => `/api/organizations/${org}/certificates`;

async function issue(client: TestClient, org: string, request: Record<string, unknown>) {
  const res = await client.send('POST', certsUrl(org), request, 'application/json');
  return { status: res.status, body: (await res.json()) as { data: CertificateResource } & JsonApiErrorBody };
}

async function count(): Promise<number> {
  const r = await sql<{ n: number }>`select count(*)::int as n from organization_certificates`.execute(
    t.app.db,
  );
  return r.rows[0]!.n;
}

function link(client: TestClient, app: string, certificate: string | null) {
  return client.send('PUT', `/api/applications/${app}/psd2-certificate`, { certificate }, 'application/json');
}

describe('sandbox test certificates', () => {
  let qwac: CertificateResource;
  let qseal: CertificateResource;
  let caPem: string;

  it('issues a QWAC from a CSR, with the PSD2 QC statement, signed by the sandbox CA', async () => {
    const res = await issue(w.c.owner, w.org.id, {
      kind: 'qwac',
      roles: ['PSP_AI'],
      csr: await makeCsr(),
    });
    expect(res.status).toBe(201);
    qwac = res.body.data;
    expect(qwac.attributes).toMatchObject({
      kind: 'qwac',
      roles: ['PSP_AI'],
      status: 'active',
      nca: { name: 'Sandbox Financial Supervisory Authority', id: 'XX-SFSA' },
    });
    const cert = new X509Certificate(qwac.attributes.pem);
    expect(cert.subject).toContain('CN=Budget Buddy TPP');
    expect(cert.subject).toContain(`O=${w.org.attributes.label}`);
    expect(cert.serialNumber.toLowerCase()).toBe(qwac.attributes.serial);
    expect(cert.keyUsage).toEqual(expect.arrayContaining(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']));
    const ext = certificateExtensions(cert.raw).find((e) => e.oid === QC_STATEMENTS_OID)!;
    const qc = parseQcStatements(ext.value);
    expect(qc.statements).toContain(PSD2_QC_STATEMENT_OID);
    expect(qc.psd2).toEqual({
      roles: ['PSP_AI'],
      ncaName: 'Sandbox Financial Supervisory Authority',
      ncaId: 'XX-SFSA',
    });
    expect(qc.qcTypes).toEqual([QC_TYPE_WEB]);

    // The CA certificate is public and signed the certificate.
    const ca = await fetch(`${t.baseUrl}/api/sandbox/ca.pem`);
    expect(ca.status).toBe(200);
    caPem = await ca.text();
    const caCert = new X509Certificate(caPem);
    expect(caCert.ca).toBe(true);
    expect(caCert.subject).toContain('not trusted outside the sandbox');
    expect(cert.checkIssued(caCert)).toBe(true);
    expect(cert.verify(caCert.publicKey)).toBe(true);
  });

  it('issues a QSealC from an RSA CSR with two roles and the NCA given', async () => {
    const res = await issue(w.c.creator, w.org.id, {
      kind: 'qseal',
      roles: ['PSP_AI', 'PSP_PI'],
      csr: await makeCsr('CN=Seal', RSA),
      commonName: 'Budget Buddy Seal',
      ncaName: 'Bank of Testland',
      ncaId: 'TL-BOT',
    });
    expect(res.status).toBe(201);
    qseal = res.body.data;
    const cert = new X509Certificate(qseal.attributes.pem);
    expect(cert.subject).toContain('CN=Budget Buddy Seal');
    const ext = certificateExtensions(cert.raw).find((e) => e.oid === QC_STATEMENTS_OID)!;
    const qc = parseQcStatements(ext.value);
    // In the standard's order, whatever the request's.
    expect(qc.psd2).toEqual({ roles: ['PSP_PI', 'PSP_AI'], ncaName: 'Bank of Testland', ncaId: 'TL-BOT' });
    expect(qc.qcTypes).toEqual([QC_TYPE_ESEAL]);
  });

  it('lists the certificates and the CA to every member; only owners may issue', async () => {
    const res = await w.c.financial.get(certsUrl(w.org.id));
    expect(res.status).toBe(200);
    const doc = await body<CertificateListDocument>(res);
    expect(doc.data.map((c) => c.id)).toEqual([qseal.id, qwac.id]);
    expect(doc.meta.canIssue).toBe(false);
    expect(doc.meta.ca.pem.trim()).toBe(caPem.trim());
    const owner = await body<CertificateListDocument>(await w.c.owner.get(certsUrl(w.org.id)));
    expect(owner.meta.canIssue).toBe(true);

    const before = await count();
    const csr = await makeCsr();
    const dev = await issue(w.c.developer, w.org.id, { kind: 'qwac', roles: ['PSP_AI'], csr });
    expect(dev.status).toBe(403);
    expect(dev.body.errors[0]!.title).toBe(M.ownerRequired);
    expect((await issue(w.c.stranger, w.org.id, { kind: 'qwac', roles: ['PSP_AI'], csr })).status).toBe(404);
    expect((await w.c.stranger.get(certsUrl(w.org.id))).status).toBe(404);
    expect((await issue(w.c.anonymous, w.org.id, { kind: 'qwac', roles: ['PSP_AI'], csr })).status).toBe(401);
    expect(
      (
        await w.c.developer.send(
          'POST',
          `${certsUrl(w.org.id)}/${qwac.id}/revoke`,
          undefined,
          'application/json',
        )
      ).status,
    ).toBe(403);
    expect(await count()).toBe(before);
  });

  it('refuses a malformed CSR or request with a precise 422, storing nothing', async () => {
    const before = await count();
    const good = await makeCsr();
    const refused = async (request: Record<string, unknown>) => {
      const res = await issue(w.c.owner, w.org.id, { kind: 'qwac', roles: ['PSP_AI'], ...request });
      expect(res.status).toBe(422);
      return res.body.errors.map((e) => ({ title: e.title, pointer: e.source?.pointer }));
    };
    expect(await refused({ csr: 'hello' })).toEqual([{ title: M.csrNotPem, pointer: '/csr' }]);
    expect(
      await refused({ csr: '-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----' }),
    ).toEqual([{ title: M.csrNotRequest, pointer: '/csr' }]);
    // One byte of the signature changed.
    const der = Buffer.from(good.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
    der[der.length - 5] = der[der.length - 5]! ^ 0x01;
    const tampered = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE REQUEST-----`;
    expect(await refused({ csr: tampered })).toEqual([{ title: M.csrBadSignature, pointer: '/csr' }]);
    const weak = await makeCsr('CN=Weak', { ...RSA, modulusLength: 1024 });
    expect(await refused({ csr: weak })).toEqual([
      { title: M.csrUnsupportedKey.replace('{{key}}', 'RSA 1024 bits'), pointer: '/csr' },
    ]);
    expect(await refused({ csr: await makeCsr('O=No Name Ltd') })).toEqual([
      { title: M.csrNoCommonName, pointer: '/csr' },
    ]);
    expect(await refused({ csr: good, roles: ['PSP_AI', 'PSP_XX'] })).toEqual([
      { title: M.roleUnknown.replace('{{role}}', 'PSP_XX'), pointer: '/roles/1' },
    ]);
    expect(await refused({ csr: good, roles: [] })).toEqual([{ title: M.rolesRequired, pointer: '/roles' }]);
    expect(await refused({ csr: good, kind: 'qcert' })).toEqual([{ title: M.kindInvalid, pointer: '/kind' }]);
    expect(await count()).toBe(before);
  });

  it("keeps another organization's owner out", async () => {
    const other = await signedInUser(t, 'olga.other@example.com');
    const org = await createOrg(other, 'Other Bank TPP');
    expect((await other.get(certsUrl(w.org.id))).status).toBe(404);
    expect(
      (await other.send('POST', `${certsUrl(w.org.id)}/${qwac.id}/revoke`, undefined, 'application/json'))
        .status,
    ).toBe(404);
    // Its own organization does not know the certificate either.
    const revoke = await other.send(
      'POST',
      `${certsUrl(org.id)}/${qwac.id}/revoke`,
      undefined,
      'application/json',
    );
    expect(revoke.status).toBe(404);
    const app = await createApp(other, org.id, { title: 'Other app' });
    const res = await link(other, app.uuid, qwac.id);
    expect(res.status).toBe(422);
    expect((await body<JsonApiErrorBody>(res)).errors[0]!.title).toBe(M.certificateOtherOrganization);
  });

  describe('PSD2 roles of an application', () => {
    let aisp: Application;
    beforeAll(async () => {
      aisp = await createApp(w.c.developer, w.org.id, { title: 'AISP app' });
    });

    it('links the certificate, then allows only the products of its roles', async () => {
      const res = await link(w.c.developer, aisp.uuid, qwac.id);
      expect(res.status).toBe(200);
      expect((await body<{ data: CertificateResource }>(res)).data.id).toBe(qwac.id);
      expect((await subscription(w.c.developer, 'subscribe', aisp.uuid, accounts.uuid)).status).toBe(200);
      const refused = await subscription(w.c.developer, 'subscribe', aisp.uuid, payments.uuid);
      expect(refused.status).toBe(422);
      const errors = (await body<JsonApiErrorBody>(refused)).errors;
      expect(errors[0]!.title).toBe(
        "Payments API needs the PSD2 role PSP_PI; this application's certificate holds PSP_AI.",
      );
      expect((errors[0] as { code?: string }).code).toBe('psd2_role_missing');
    });

    it('refuses the roles it lacks through the edit call too, changing nothing', async () => {
      const res = await w.c.developer.send(
        'PATCH',
        `/jsonapi/node/application/${aisp.uuid}/edit_app_custom`,
        appDocument(
          {},
          {
            field_application_subscriptions: {
              data: [accounts.uuid, payments.uuid].map((id) => ({ type: 'node--api_product', id })),
            },
          },
        ),
      );
      expect(res.status).toBe(422);
      const error = (await body<JsonApiErrorBody>(res)).errors[0]!;
      expect(error.title).toBe(
        "Payments API needs the PSD2 role PSP_PI; this application's certificate holds PSP_AI.",
      );
      expect(error.source?.pointer).toBe('/data/relationships/field_application_subscriptions');
      const subs = await sql<{ n: number }>`select count(*)::int as n from subscriptions s
        join applications a on a.id = s.application_id where a.uuid = ${aisp.uuid}`.execute(t.app.db);
      expect(subs.rows[0]!.n).toBe(1);
      const bad = await link(w.c.developer, aisp.uuid, 'not-a-uuid');
      expect(bad.status).toBe(422);
      expect((await body<JsonApiErrorBody>(bad)).errors[0]!.title).toBe(M.certificateFieldInvalid);
    });

    it('gives its tokens only the scopes of its roles', async () => {
      const clientId = aisp.clientId.development!;
      const token = await clientCredentials(t, clientId, aisp.clientSecret!);
      expect(token.status).toBe(200);
      expect(token.body.scope).toBe('accounts:read');
      const more = await clientCredentials(t, clientId, aisp.clientSecret!, 'accounts:read payments:write');
      expect(more.status).toBe(400);
      expect(more.body.error).toBe('invalid_scope');
      expect(more.body.error_description).toBe(
        "scope payments:write belongs to Payments API, which needs the PSD2 role PSP_PI; this application's certificate holds PSP_AI",
      );
    });

    it('refuses a certificate that does not cover the subscriptions, and a revoked one', async () => {
      const app = await createApp(w.c.developer, w.org.id, { title: 'Payments app' });
      // Without a certificate nothing changes: any product may be subscribed.
      expect((await subscription(w.c.developer, 'subscribe', app.uuid, payments.uuid)).status).toBe(200);
      const res = await link(w.c.developer, app.uuid, qwac.id);
      expect(res.status).toBe(422);
      expect((await body<JsonApiErrorBody>(res)).errors[0]!.title).toBe(
        "Payments API needs the PSD2 role PSP_PI; this application's certificate holds PSP_AI.",
      );
      const stored = await sql<{ id: number | null }>`select psd2_certificate_id as id from applications
        where uuid = ${app.uuid}`.execute(t.app.db);
      expect(stored.rows[0]!.id).toBeNull();
      // A financial member may not link certificates.
      expect((await link(w.c.financial, app.uuid, qseal.id)).status).toBe(403);
    });

    it('accepts a sandbox certificate at the go-live check', async () => {
      const app = await createApp(w.c.developer, w.org.id, { title: 'PISP app' });
      expect((await link(w.c.developer, app.uuid, qseal.id)).status).toBe(200);
      expect((await subscription(w.c.developer, 'subscribe', app.uuid, payments.uuid)).status).toBe(200);
      const res = await w.c.developer.get(`/phpsdk/certificates/${app.uuid}/validate?_format=json`);
      expect(res.status).toBe(200);
      const check = await body<CertificateValidation>(res);
      expect(check.isValid).toBe(true);
      expect(check.certRequired).toBe(true);
      expect(check.message).toBe(
        en.applications.certValid
          .replace('{{file}}', `sandbox certificate ${qseal.attributes.serial}`)
          .replace('{{until}}', qseal.attributes.notAfter.slice(0, 10)),
      );
    });

    it('takes the roles away when the certificate is revoked', async () => {
      const res = await w.c.owner.send(
        'POST',
        `${certsUrl(w.org.id)}/${qwac.id}/revoke`,
        undefined,
        'application/json',
      );
      expect(res.status).toBe(200);
      expect((await body<{ data: CertificateResource }>(res)).data.attributes.status).toBe('revoked');
      expect(await t.app.oauthClients.allowedScopes(aisp.clientId.development!)).toEqual([]);
      const again = await w.c.owner.send(
        'POST',
        `${certsUrl(w.org.id)}/${qwac.id}/revoke`,
        undefined,
        'application/json',
      );
      expect(again.status).toBe(409);
      const relink = await link(w.c.developer, aisp.uuid, qwac.id);
      expect(relink.status).toBe(422);
      expect((await body<JsonApiErrorBody>(relink)).errors[0]!.title).toBe(M.certificateNotUsable);
    });
  });
});
