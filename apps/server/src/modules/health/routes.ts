import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';

/** Liveness (the process answers) and readiness (it can serve: database reachable, not stopping). */
export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  let stopping = false;
  app.addHook('preClose', async () => {
    stopping = true;
  });

  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    if (stopping) return reply.status(503).send({ status: 'stopping' });
    try {
      await sql`select 1`.execute(app.db);
      return { status: 'ready', database: app.dbKind };
    } catch (err) {
      app.log.error({ err }, 'readiness check failed');
      return reply.status(503).send({ status: 'unavailable', database: app.dbKind });
    }
  });
}
