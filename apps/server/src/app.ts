import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import type { Config } from './config.ts';
import dbPlugin from './plugins/db.ts';
import securityPlugin from './plugins/security.ts';
import textInputPlugin from './plugins/text-input.ts';
import { errorLanguagePlugin } from './plugins/error-language.ts';
import webAppPlugin from './plugins/web-app.ts';
import healthRoutes from './modules/health/routes.ts';
import identityPlugin from './modules/identity/plugin.ts';
import organizationsPlugin from './modules/organizations/plugin.ts';
import sitePlugin from './modules/site/plugin.ts';
import catalogPlugin from './modules/catalog/plugin.ts';
import authzServerPlugin from './authz-server/plugin.ts';
import gatewayPlugin from './gateway/plugin.ts';
import sandboxAppPlugin, { serverWithSandbox, type SandboxDispatch } from './gateway/routes.ts';
import { instanceOptions, requestBasics } from './plugins/request-basics.ts';
import mtlsListenerPlugin from './authz-server/mtls-listener.ts';
import applicationsPlugin from './modules/applications/plugin.ts';
import certificatesPlugin from './modules/certificates/plugin.ts';
import pagesPlugin from './modules/pages/plugin.ts';
import searchPlugin from './modules/search/plugin.ts';
import tryoutPlugin from './modules/tryout/plugin.ts';
import supportPlugin from './modules/support/plugin.ts';
import forumPlugin from './modules/forum/plugin.ts';
import contentPlugin from './modules/content/plugin.ts';
import quickstartPlugin from './modules/quickstart/plugin.ts';
import consoleUsersPlugin from './modules/console-users/plugin.ts';
import auditPlugin from './modules/audit/plugin.ts';
import consoleDashboardPlugin from './modules/console-dashboard/plugin.ts';
import consoleImagesPlugin from './modules/console-images/plugin.ts';
import markdownPlugin from './modules/markdown/plugin.ts';
import mcpPlugin from './modules/mcp/plugin.ts';
import servicesPlugin from './plugins/services.ts';
import sessionPlugin from './plugins/session.ts';
import httpCachePlugin, { answerEarly } from './plugins/http-cache.ts';
import { importContent } from './content/import-content.ts';
import { importers } from './content/importers.ts';
import { withStartupLock } from './db/startup-lock.ts';

export interface BuildOptions {
  config: Config;
  /** Override the logger (tests pass false). */
  logger?: FastifyServerOptions['logger'];
  /** Told of every route as it is added (the route-access test keeps an inventory with it). */
  onRoute?: (route: RouteOptions) => void;
}

/** Builds the whole portal as a Fastify instance without listening: server.ts and tests call it. */
export async function buildApp({ config, logger, onRoute }: BuildOptions): Promise<FastifyInstance> {
  // Where the server sends calls of the sandbox once its instance is ready (decision 075).
  const sandbox: SandboxDispatch = {};
  const app = Fastify({
    ...instanceOptions(config),
    logger: logger ?? {
      level: config.logLevel,
      redact: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-csrf-token"]',
        'req.headers["x-portico-agent-call"]',
      ],
    },
    // Calls of the sandbox go to its own instance on the same server (decision 075).
    serverFactory: serverWithSandbox(sandbox),
  });
  app.decorate('config', config);
  if (onRoute) app.addHook('onRoute', onRoute);

  // The Request-Id, Connection: close while closing, the error handler.
  requestBasics(app);
  // A cached anonymous answer goes out before any other hook runs (plugins/http-cache.ts).
  app.addHook('onRequest', answerEarly);
  // Graceful shutdown: Fastify's forceCloseConnections: 'idle' closes the idle connections once,
  // when the close begins; a response already under way then (a streamed file whose client has
  // every byte) falls idle later, so idle connections are closed again every 100 ms until the
  // server has closed.
  let sweep: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    sweep = setInterval(() => app.server.closeIdleConnections(), 100).unref();
  });
  app.addHook('onClose', async () => clearInterval(sweep));
  // JSON:API documents are JSON.
  app.addContentTypeParser(
    'application/vnd.api+json',
    { parseAs: 'string' },
    app.getDefaultJsonParser('error', 'error'),
  );

  try {
    await app.register(securityPlugin);
    // Before anything reads the request: text no database column can hold is a 400 here.
    await app.register(textInputPlugin);
    await app.register(dbPlugin);
    await app.register(servicesPlugin);
    await app.register(sessionPlugin);
    // Error answers in the request's language (after the session: the user's own language wins).
    await app.register(errorLanguagePlugin);
    // ETags and 304s for the API, and the cache of public answers (decision 018).
    await app.register(httpCachePlugin);
    await app.register(healthRoutes);
    await app.register(identityPlugin);
    // Feature modules register here, one line each.
    await app.register(sitePlugin);
    await app.register(organizationsPlugin);
    await app.register(catalogPlugin);
    await app.register(authzServerPlugin);
    await app.register(gatewayPlugin);
    // The sandbox's routes in a Fastify instance of their own (decision 075).
    await app.register(sandboxAppPlugin, { dispatch: sandbox });
    await app.register(mtlsListenerPlugin);
    await app.register(applicationsPlugin);
    await app.register(certificatesPlugin);
    await app.register(searchPlugin);
    await app.register(supportPlugin);
    await app.register(consoleUsersPlugin);
    await app.register(forumPlugin);
    await app.register(contentPlugin);
    await app.register(quickstartPlugin);
    await app.register(auditPlugin);
    await app.register(consoleDashboardPlugin);
    await app.register(consoleImagesPlugin);
    // Markdown of the public pages and /llms.txt (asked by the web app's fallback below).
    await app.register(markdownPlugin);
    // The MCP server for AI assistants at /mcp (issue 30, decision 056).
    await app.register(mcpPlugin);
    // A root wildcard: every other route wins over it, and what it leaves goes to the web app.
    await app.register(pagesPlugin);
    await app.register(tryoutPlugin);
    await app.register(webAppPlugin);

    if (config.importContent) {
      // Under the start-up lock: instances starting together import one after the other.
      await withStartupLock(
        app.db,
        app.dbKind,
        () =>
          importContent(importers, {
            db: app.db,
            contentDir: config.contentDir,
            log: app.log,
            publicUrl: config.publicUrl,
            secretBox: app.secretBox,
            storage: app.storage,
          }),
        { onWait: () => app.log.info('another instance is importing the content; waiting for it') },
      );
    }
  } catch (err) {
    // A start that fails half-way closes what the plugins opened (the database, its lock).
    await app.close().catch(() => {});
    throw err;
  }
  return app;
}

/** True when the built web app exists (tests of the server alone may run without it). */
export function webAppBuilt(config: Config): boolean {
  return fs.existsSync(path.join(config.webDist, 'index.html'));
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}
