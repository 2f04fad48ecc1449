import fp from 'fastify-plugin';
import type { JWK } from 'jose';
import { sweepExpiredOidcPayloads } from '../oidc/adapter.ts';
import { mountOidcProvider } from '../oidc/mount.ts';
import { createClientService, type ClientService } from './clients.ts';
import {
  OAUTH_PREFIX,
  createAuthorizationServer,
  oauthIssuer,
  publicJwks,
  sandboxResource,
} from './provider.ts';
import { STATEMENT_JWKS_PATH, type StatementSigner } from './registration.ts';
import { authorizationServerRoutes } from './routes.ts';
import { consentRevocationCheck } from './scripted-customers.ts';
import { createCertificateTrust, type CertificateTrust } from './certificate-trust.ts';

/**
 * The API authorization server at /oauth (tokens for developer applications) and its client
 * service, shared as `app.oauthClients`; `app.oauthServer` tells the sandbox gateway how to
 * verify the tokens locally.
 */
export default fp(
  async (app) => {
    // Cached client answers hold while the change counters they depend on do (clients.ts).
    const clients = createClientService(app.db, app.secretBox, () => app.dataVersions.read());
    // The CAs the mutual-TLS port trusts (the certificates module adds the sandbox CA).
    app.decorate('certificateTrust', createCertificateTrust());
    const { provider, keys, statements } = await createAuthorizationServer(app, clients);
    app.decorate('oauthClients', clients);
    app.decorate('softwareStatements', statements);
    // The software statements' public keys (the directory's keystore, issue 28): a TPP's tooling
    // and the registration endpoint verify statements with them.
    app.get(STATEMENT_JWKS_PATH, async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=300');
      return reply.type('application/jwk-set+json').send({ keys: statements.publicKeys });
    });
    app.decorate('oauthServer', {
      issuer: oauthIssuer(app),
      resource: sandboxResource(app),
      publicKeys: publicJwks(keys),
      tokenRefusal: consentRevocationCheck(app.db, provider),
    });
    await authorizationServerRoutes(app, provider);
    await mountOidcProvider(app, OAUTH_PREFIX, provider);
    // Expired codes, sessions, grants and refresh tokens are removed hourly.
    const sweep = setInterval(() => {
      sweepExpiredOidcPayloads(app.db).catch((err: unknown) =>
        app.log.warn({ err }, 'removing expired authorization server records failed'),
      );
    }, 3600_000);
    sweep.unref();
    app.addHook('onClose', async () => clearInterval(sweep));
  },
  { name: 'authz-server', dependencies: ['db', 'services'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    oauthClients: ClientService;
    oauthServer: {
      issuer: string;
      resource: string;
      publicKeys: JWK[];
      /** Why the sandbox refuses a verified access token (a revoked consent), or null. */
      tokenRefusal(token: {
        subject: string | undefined;
        grantId: string | undefined;
      }): Promise<string | null>;
    };
    /** The client certificates' trusted CAs and their revocations (certificate-trust.ts). */
    certificateTrust: CertificateTrust;
    /** Signs the software statements of dynamic client registration (registration.ts). */
    softwareStatements: StatementSigner;
  }
}
