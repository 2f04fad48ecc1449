import path from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyError } from 'fastify';
import { createLocalStorage, type FileStorage } from '../../lib/storage.ts';
import { membershipRoutes } from './membership-routes.ts';
import { organizationRoutes } from './organization-routes.ts';
import { outboxRoutes } from './outbox-routes.ts';
import { ApiErrors, sendApiErrors } from './resources.ts';

/**
 * Organizations, members, roles, invitations and organization files (spec A 7 'Organizations and
 * membership'), the file storage (DATA_DIR/files) and the administrator's outbox.
 */
export default fp(
  async (app) => {
    if (!app.hasDecorator('storage')) {
      app.decorate('storage', createLocalStorage(path.join(app.config.dataDir, 'files')));
    }
    const storage = app.storage;
    await app.register(async (scope) => {
      // Errors with a title and a separate detail (uploads) or several entries (form validation).
      scope.setErrorHandler((error: FastifyError | ApiErrors, _request, reply) => {
        if (error instanceof ApiErrors) return sendApiErrors(reply, error);
        throw error;
      });
      // DELETE calls of the web app may carry a JSON content type without a body: accept that.
      const json = scope.getDefaultJsonParser('error', 'error');
      for (const type of ['application/json', 'application/vnd.api+json']) {
        scope.removeContentTypeParser(type);
        scope.addContentTypeParser(type, { parseAs: 'string' }, (request, raw, done) => {
          if (raw === '' && request.method === 'DELETE') return done(null, undefined);
          return json(request, String(raw), done);
        });
      }
      await organizationRoutes(scope, storage);
      await membershipRoutes(scope);
      await outboxRoutes(scope);
    });
  },
  { name: 'organizations', dependencies: ['session', 'services'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** Uploaded files: the local folder DATA_DIR/files (S3-compatible storage later). */
    storage: FileStorage;
  }
}
