import fp from 'fastify-plugin';
import { consoleUserRoutes } from './routes.ts';

/**
 * The provider console's users and roles (issue 27, README.md): the account list and page, blocking
 * and unblocking, provider roles. Administrators only.
 */
export default fp(
  async (app) => {
    await app.register(async (scope) => {
      // POST .../block and .../unblock carry no body: accept an empty JSON one as the web app sends it.
      const json = scope.getDefaultJsonParser('error', 'error');
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => {
        if (raw === '' && request.method === 'POST') return done(null, undefined);
        return json(request, String(raw), done);
      });
      await consoleUserRoutes(scope);
    });
  },
  { name: 'console-users', dependencies: ['session', 'services', 'authz-server', 'applications'] },
);
