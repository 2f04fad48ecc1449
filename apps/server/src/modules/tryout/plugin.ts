import fp from 'fastify-plugin';
import { tryoutRoutes } from './routes.ts';

/** The try-out console's stored history (README.md). */
export default fp(
  async (app) => {
    await app.register(tryoutRoutes);
  },
  { name: 'tryout', dependencies: ['db'] },
);
