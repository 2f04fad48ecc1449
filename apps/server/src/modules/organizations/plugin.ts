import fp from 'fastify-plugin';
import { cacheAnswers } from '../../plugins/http-cache.ts';
import { onAddressProven } from '../identity/service.ts';
import { linkInvitations } from './authz.ts';
import { membershipRoutes } from './membership-routes.ts';
import { organizationRoutes } from './organization-routes.ts';
import { outboxRoutes } from './outbox-routes.ts';
import { apiErrorsScope } from '../../jsonapi/errors.ts';

/**
 * Organizations, members, roles, invitations and organization files (spec A 7 'Organizations and
 * membership') and the administrator's outbox. The files' bytes live in the storage of the services
 * plugin (app.storage).
 */
export default fp(
  async (app) => {
    const storage = app.storage;
    // Invitations sent to an address become the account's when it proves the address, in the same
    // transaction: never on a read (a GET never writes).
    onAddressProven(linkInvitations);
    await app.register(async (scope) => {
      // Errors with a title and a separate detail (uploads) or several entries (form validation);
      // DELETE calls of the web app may carry a JSON content type without a body.
      apiErrorsScope(scope, ['DELETE']);
      // The caller's organizations depend only on the database and the user (a GET that only
      // reads, collections.ts myOrganizations): answered from memory per user until the
      // organizations' tables or the user change (decision 028).
      cacheAnswers(scope, {
        domains: ['organizations'],
        perUser: true,
        routes: ['/jsonapi/group/organization'],
      });
      await organizationRoutes(scope, storage);
      await membershipRoutes(scope);
      await outboxRoutes(scope);
    });
  },
  { name: 'organizations', dependencies: ['session', 'services', 'http-cache'] },
);
