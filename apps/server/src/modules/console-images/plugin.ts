import fp from 'fastify-plugin';
import { imageRoutes } from './routes.ts';

/**
 * Images uploaded in the provider console (issue 27, README.md): content editors, API managers and
 * administrators upload and list them; everyone sees them at /images/console/<uuid>.<ext>.
 */
export default fp(
  async (app) => {
    await imageRoutes(app);
  },
  { name: 'console-images', dependencies: ['session', 'services'] },
);
