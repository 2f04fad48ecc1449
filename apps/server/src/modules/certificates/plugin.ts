import fp from 'fastify-plugin';
import { sandboxCa } from './ca.ts';
import { revocationOf } from './service.ts';
import { certificateRoutes } from './routes.ts';
import { apiErrorsScope } from '../../jsonapi/errors.ts';

/**
 * Sandbox test certificates (issue 28, README.md): the sandbox CA, an organization's QWAC-like and
 * QSealC-like certificates, and the certificate whose PSD2 roles limit an application.
 */
export default fp(
  async (app) => {
    // The sandbox CA is made (once) or loaded at start, like the authorization servers' signing
    // keys: the GETs that show it then only read.
    const ca = await sandboxCa(app.db, app.secretBox);
    // The mutual-TLS port trusts the sandbox CA, and refuses its revoked certificates at once
    // (authz-server/certificate-trust.ts).
    app.certificateTrust.add({
      certificate: ca.certificate.toString('pem'),
      refusal: (certificate) => revocationOf(app.db, certificate.serialNumber),
    });
    await app.register(async (scope) => {
      // Errors with several entries; a revoke is a POST without a body, with or without a JSON type.
      apiErrorsScope(scope, ['POST']);
      await certificateRoutes(scope);
    });
  },
  {
    name: 'certificates',
    dependencies: ['session', 'services', 'organizations', 'applications', 'authz-server'],
  },
);
