import fp from 'fastify-plugin';
import { completedStories } from '../identity/service.ts';
import { consoleStoryRoutes } from './console.ts';
import { readerLocale } from '../../lib/translations.ts';
import { storiesForCaller } from './service.ts';
import { storiesIn } from './translations.ts';

/**
 * The Quick Start tour's stories (spec B 2.15, 7 `GET /getting_started/stories`). Public: an
 * anonymous caller gets them too, with disabled computed for an anonymous visitor and nothing
 * completed (the web app keeps an anonymous visitor's completed stories locally). Completed stories
 * are saved through `PATCH /jsonapi/user/user/{uuid}` (identity module). Only published stories are
 * shown; the console edits them under /admin-api/content/quickstart (console.ts).
 */
export default fp(
  async (app) => {
    app.get<{ Querystring: { langcode?: unknown } }>('/getting_started/stories', async (request, reply) => {
      // In the reader's language (`langcode`, decision 064): each story with its marker.
      const langcode = readerLocale(request.query.langcode);
      const user = request.user;
      const caller = user ? { completedStories: await completedStories(app.db, user.id) } : null;
      const data = await storiesIn(app.db, await storiesForCaller(app.db, caller), langcode);
      // Per caller: never shared by a cache.
      return reply.header('Cache-Control', 'private, no-store').send({ data });
    });

    // The console's stories (README.md 'Console').
    await app.register(consoleStoryRoutes);
  },
  { name: 'quickstart', dependencies: ['db', 'session'] },
);
