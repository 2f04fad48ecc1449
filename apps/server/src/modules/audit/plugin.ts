import fp from 'fastify-plugin';
import { auditRoutes } from './routes.ts';

/**
 * The audit log's readers (issue 27): `GET /admin-api/audit` (JSON:API), `GET /admin-api/audit.csv`
 * and an organization's part for its owners. Writers are the other modules, through service.ts.
 */
export default fp(
  async (app) => {
    await auditRoutes(app);
  },
  { name: 'audit', dependencies: ['db', 'session', 'organizations'] },
);
