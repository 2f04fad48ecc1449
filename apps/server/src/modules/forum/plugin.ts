import fp from 'fastify-plugin';
import { cacheAnswers } from '../../plugins/http-cache.ts';
import { forumRoutes } from './routes.ts';

/**
 * Forums (spec B 2.13, 7; issue 14): forums and containers, topics, threaded comments,
 * subscriptions with e-mail notifications, moderation by the provider's administrators, and the
 * search index rows of the topics. Endpoints: README.md.
 */
export default fp(
  async (app) => {
    await app.register(async (scope) => {
      // DELETE calls of the web app may carry a JSON content type without a body: accept that.
      const json = scope.getDefaultJsonParser('error', 'error');
      for (const type of ['application/json', 'application/vnd.api+json']) {
        scope.removeContentTypeParser(type);
        scope.addContentTypeParser(type, { parseAs: 'string' }, (request, raw, done) => {
          if (raw === '' && request.method === 'DELETE') return done(null, undefined);
          return json(request, String(raw), done);
        });
      }
      // The forum's lists and topics depend only on its tables and the authors' names (users):
      // answered from memory until those change, signed-in ones per user (decision 028).
      cacheAnswers(scope, {
        domains: ['forum', 'identity'],
        perUser: true,
        routes: [
          '/jsonapi/taxonomy_term/forums',
          '/phpsdk/forum-topics/:forumId',
          '/jsonapi/node/forum',
          '/jsonapi/node/forum/:id',
          '/jsonapi/comment/comment_forum',
        ],
      });
      await forumRoutes(scope);
    });
  },
  { name: 'forum', dependencies: ['db', 'session', 'services', 'http-cache'] },
);
