import { en } from '@portico/contracts/messages';
import fp from 'fastify-plugin';
import { cacheAnswers } from '../../plugins/http-cache.ts';
import { analyticsRoutes } from './analytics-routes.ts';
import { applicationRoutes } from './application-routes.ts';
import { credentialRoutes } from './credential-routes.ts';
import { goLiveRoutes } from './golive-routes.ts';
import { noticeRoutes } from './notice-routes.ts';
import { dynamicRegistrar, softwareStatementRoutes } from './registration.ts';
import { reviewRoutes } from './review-routes.ts';
import { tokenSecurityRoutes } from './token-security-routes.ts';
import { scheduleSecretExpiryReminders } from './secret-reminders.ts';
import { roleLimitedScopes, scopeRefusal } from './psd2-roles.ts';
import { creatorBlocked, deleteApplication } from './service.ts';
import { appDb } from './tables.ts';
import { organizationDeleteGuards, type OrganizationDeleteGuard } from '../organizations/service.ts';
import { apiErrorsScope } from '../../jsonapi/errors.ts';

/**
 * Applications, credentials, subscriptions, go-live and its review, analytics (issue 5). Hooks
 * into two other modules: the authorization server asks this module for the scopes of an
 * application's clients, and the organizations module asks it before deleting an organization.
 */
export default fp(
  async (app) => {
    // A client's allowed scopes = the scopes of the products its application is subscribed to,
    // less those its PSD2 certificate's roles do not allow (issue 28, psd2-roles.ts).
    app.oauthClients.registerScopeResolver(async (client, db) =>
      client.applicationUuid ? roleLimitedScopes(db, client.applicationUuid, client.environment) : [],
    );
    app.oauthClients.registerScopeExplainer(async (client, scope, db) =>
      client.applicationUuid ? scopeRefusal(db, client.applicationUuid, client.environment, scope) : null,
    );
    // An application whose creator is blocked gets no tokens and is refused by the sandbox (issue 27).
    app.oauthClients.registerClientGate(async (client, db) =>
      client.applicationUuid ? creatorBlocked(db, client.applicationUuid) : null,
    );
    // Clients a TPP registers with a software statement become applications (issue 28).
    app.oauthClients.registerDynamicRegistrar(dynamicRegistrar(app));

    // Refuses while an application is in PRODUCTION; otherwise the applications and their OAuth
    // clients go with the organization, in its transaction.
    const guard: OrganizationDeleteGuard = async (trx, org) => {
      const apps = await appDb(trx)
        .selectFrom('applications')
        .selectAll()
        .where('organization_id', '=', org.id)
        .execute();
      if (apps.some((a) => a.status === 'PRODUCTION'))
        return en.organizations.deleteNotAllowed.replace('{{email}}', app.config.supportEmail);
      for (const a of apps) {
        for (const clientId of await deleteApplication(trx, app.secretBox, a))
          app.oauthClients.clearAccessCache(clientId);
      }
      return null;
    };
    // Owners hear of a rotated secret a week and a day before it expires (issue 28).
    scheduleSecretExpiryReminders(app);

    organizationDeleteGuards.push(guard);
    // The guard list is per process; tests build several apps in one.
    app.addHook('onClose', async () => {
      const at = organizationDeleteGuards.indexOf(guard);
      if (at >= 0) organizationDeleteGuards.splice(at, 1);
    });

    await app.register(async (scope) => {
      // Form errors carry several entries (one per field); DELETE and POST calls of the web app may
      // carry a JSON content type without a body.
      apiErrorsScope(scope, ['DELETE', 'POST']);
      // The caller's applications depend only on the database and the user: answered from memory
      // per user until one of the tables they read changes (decision 028).
      cacheAnswers(scope, {
        domains: ['applications', 'organizations', 'catalog'],
        perUser: true,
        routes: ['/phpsdk/organization/apps', '/jsonapi/node/application/:id'],
      });
      await applicationRoutes(scope);
      await credentialRoutes(scope);
      await softwareStatementRoutes(scope);
      await goLiveRoutes(scope);
      await reviewRoutes(scope);
      await analyticsRoutes(scope);
      await noticeRoutes(scope);
      await tokenSecurityRoutes(scope);
    });
  },
  {
    name: 'applications',
    dependencies: ['session', 'services', 'organizations', 'authz-server', 'http-cache'],
  },
);
