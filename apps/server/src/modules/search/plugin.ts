import fp from 'fastify-plugin';
import { searchRoutes } from './routes.ts';

/** The site search (README.md): GET /phpsdk/search over the index the other modules keep current. */
export default fp(
  async (app) => {
    searchRoutes(app);
  },
  { name: 'search', dependencies: ['db'] },
);
