import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalogContent } from '../src/modules/catalog/importer.ts';
import { importApi, prepareApiImport } from '../src/modules/catalog/import-api.ts';
import { documentScopes } from '../src/modules/catalog/scopes.ts';
import { catalogDb } from '../src/modules/catalog/tables.ts';
import {
  clientCredentials,
  createApp,
  makeWorld,
  subscription,
  type World,
} from './applications-fixtures.ts';
import { TestClient } from './http-client.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** The OAuth scopes of imported documents reach their product, and subscriptions grant them. */

/** Shaped like Azure's management APIs: one implicit-flow scope on every operation. */
const azureLike = (title: string) => ({
  openapi: '3.0.3',
  info: { title, version: '2024-01-01' },
  servers: [{ url: 'https://management.example.com' }],
  security: [{ azure_auth: ['user_impersonation'] }],
  components: {
    securitySchemes: {
      azure_auth: {
        type: 'oauth2',
        flows: {
          implicit: {
            authorizationUrl: 'https://login.example.com/oauth2/authorize',
            scopes: { user_impersonation: 'impersonate your user account', unused: 'never asked for' },
          },
        },
      },
      key: { type: 'apiKey', in: 'header', name: 'X-Key' },
    },
  },
  paths: {
    '/vaults': {
      get: { responses: { '200': { description: 'OK', content: { 'application/json': { example: [] } } } } },
    },
    '/vaults/{name}': {
      delete: {
        parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
        // An operation's own requirement adds its scope; an API key adds none.
        security: [{ azure_auth: ['vaults.delete'] }, { key: [] }],
        responses: { '204': { description: 'Gone' } },
      },
    },
  },
});

const productRow = (t: TestApp, alias: string) =>
  catalogDb(t.app.db)
    .selectFrom('api_products')
    .select(['uuid', 'scope', 'scope_production'])
    .where('alias', '=', alias)
    .executeTakeFirstOrThrow();

describe('scopes of imported documents', () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await startTestApp({ LOGIN_RATE_LIMIT: '1000', IMPORT_CONTENT: 'false' });
    w = await makeWorld(t, new TestClient(t.baseUrl));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reads the scopes the requirements ask for, not every scope a flow lists', () => {
    expect(documentScopes(azureLike('x'))).toEqual(['user_impersonation', 'vaults.delete']);
    expect(documentScopes({ paths: {} })).toEqual([]);
    expect(documentScopes(null)).toEqual([]);
  });

  it('import-api adds them to the product, and a subscribed application calls the sandbox', async () => {
    const doc = azureLike('Key Vault');
    await importApi(
      t.app.db,
      await prepareApiImport(
        { name: 'keyvault.json', text: JSON.stringify(doc) },
        { product: 'key-vault' },
        t.config.publicUrl,
      ),
    );
    const product = await productRow(t, 'key-vault');
    expect(product.scope).toBe('user_impersonation vaults.delete');
    expect(product.scope_production).toBe('user_impersonation vaults.delete');

    const app = await createApp(w.c.developer, w.org.id, { title: 'Vault app' });
    expect((await subscription(w.c.developer, 'subscribe', app.uuid, product.uuid)).status).toBe(200);
    const token = await clientCredentials(t, app.clientId.development!, app.clientSecret!);
    expect(token.status).toBe(200);
    expect(token.body.scope).toBe('user_impersonation vaults.delete');
    const res = await fetch(`${t.baseUrl}/sandbox/keyvault/vaults`, {
      headers: { authorization: `Bearer ${token.body.access_token}` },
    });
    expect(res.status).toBe(200);

    // A re-import into an existing product keeps what it had and adds what is new.
    await catalogDb(t.app.db)
      .updateTable('api_products')
      .set({ scope: 'own', scope_production: '' })
      .where('alias', '=', 'key-vault')
      .execute();
    await importApi(
      t.app.db,
      await prepareApiImport(
        { name: 'keyvault.json', text: JSON.stringify({ ...doc, info: { ...doc.info, version: '2' } }) },
        { product: 'key-vault' },
        t.config.publicUrl,
      ),
    );
    expect(await productRow(t, 'key-vault')).toMatchObject({
      scope: 'own user_impersonation vaults.delete',
      scope_production: 'user_impersonation vaults.delete',
    });
  });

  it('the content importer adds them to the products that list the document', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-scopes-'));
    try {
      fs.mkdirSync(path.join(dir, 'catalog'));
      fs.mkdirSync(path.join(dir, 'openapi'));
      fs.writeFileSync(path.join(dir, 'openapi/storage.json'), JSON.stringify(azureLike('Storage')));
      fs.writeFileSync(
        path.join(dir, 'catalog/products.yaml'),
        [
          'products:',
          '  - alias: storage-api',
          '    title: Storage API',
          '    scope: storage:read',
          '    documentations: [storage]',
          '',
        ].join('\n'),
      );
      expect(await importCatalogContent(t.app.db, dir, t.config.publicUrl)).toBe('imported');
      expect(await productRow(t, 'storage-api')).toMatchObject({
        scope: 'storage:read user_impersonation vaults.delete',
        scope_production: 'user_impersonation vaults.delete',
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
