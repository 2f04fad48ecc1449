import { PLAN_MAX, type ProductPlan } from '@portico/contracts/console-products';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { etagOf, expectedVersion, sendConflict } from '../../lib/console-edits.ts';
import { HttpError, notFound } from '../../lib/errors.ts';
import { parseBody } from '../../lib/validation.ts';
import { requireProviderRole } from '../../plugins/session.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { DEFAULT_PLAN } from './store.ts';
import { catalogDb } from './tables.ts';
import { UUID } from '../../lib/ids.ts';

/**
 * The plans of a product's API documentations (spec B 2.12 'plan table', README.md 'Console: API
 * products'): the text each documentation's plan table shows, e.g. '100 per hour' (the default).
 * A plan belongs to a documentation (`api_documentations.plan`, as the content files and
 * `import-api --plan` give it); the console edits those of one product's documentations together.
 * A plan set here stamps `plan_edited_at`: the imports keep it, and `export-content` writes it to the
 * documentation's entry.
 */

const M = en.console.products;
const E = M.errors;

const requireManager = (request: FastifyRequest) =>
  requireProviderRole(request, 'api_manager', M.managersOnly);

const planText = z
  .string()
  .trim()
  .max(PLAN_MAX, format(E.planInvalid, { max: PLAN_MAX }))
  // No line breaks or markup: one line of the plan table.
  .regex(/^[^\n\r<>]*$/, format(E.planInvalid, { max: PLAN_MAX }))
  .nullable()
  .transform((v) => v || null);
const saveSchema = z
  .object({
    plans: z
      .array(
        z
          .object({ documentation: z.string().regex(UUID, E.planDocumentationUnknown), plan: planText })
          .strict(),
      )
      .max(50),
    version: z.number().int().positive().optional(),
  })
  .strict();

/** The product (its row locked with `lock`, inside a save); a 404 when there is none. */
async function productOf(db: Db, id: string, lock = false) {
  let q = catalogDb(db)
    .selectFrom('api_products')
    .select(['id', 'uuid', 'title', 'plans_version'])
    .where('uuid', '=', id.toLowerCase());
  if (lock) q = q.forUpdate();
  const product = UUID.test(id) ? await q.executeTakeFirst() : undefined;
  if (!product) throw notFound(E.notFound);
  return product;
}

async function plansOf(db: Db, productId: number): Promise<(ProductPlan & { rowId: number })[]> {
  const rows = await catalogDb(db)
    .selectFrom('api_product_documentations as pd')
    .innerJoin('api_documentations as d', 'd.id', 'pd.documentation_id')
    .select(['d.id', 'd.uuid', 'd.alias', 'd.title', 'd.version', 'd.plan', 'd.plan_edited_at'])
    .where('pd.product_id', '=', productId)
    .orderBy('pd.weight')
    .orderBy('d.title')
    .execute();
  return rows.map((d) => ({
    rowId: d.id,
    documentation: d.uuid,
    alias: d.alias,
    title: d.title,
    apiVersion: d.version,
    plan: d.plan,
    edited: d.plan_edited_at !== null,
  }));
}

const json = (plans: (ProductPlan & { rowId: number })[]): ProductPlan[] =>
  plans.map(({ rowId: _rowId, ...rest }) => rest);

type Params = { Params: { id: string } };

/** The console's plan routes (README.md 'Console: API products'). */
export async function consolePlanRoutes(app: FastifyInstance): Promise<void> {
  app.get<Params>('/admin-api/catalog/products/:id/plans', async (request, reply) => {
    requireManager(request);
    const product = await productOf(app.db, request.params.id);
    reply.header('Cache-Control', 'no-store').header('ETag', etagOf(product.plans_version));
    return { data: json(await plansOf(app.db, product.id)), meta: { version: product.plans_version } };
  });

  app.put<Params>('/admin-api/catalog/products/:id/plans', async (request, reply) => {
    requireManager(request);
    const { plans, version } = parseBody(saveSchema, request.body);
    const expected = expectedVersion(request, version, E.versionNeeded);
    const saved = await app.db.transaction().execute(async (trx) => {
      const product = await productOf(trx, request.params.id, true);
      const current = await plansOf(trx, product.id);
      if (product.plans_version !== expected)
        return { stale: true as const, version: product.plans_version, plans: current };
      const actor = actorOf(request);
      for (const [i, p] of plans.entries()) {
        const doc = current.find((d) => d.documentation === p.documentation.toLowerCase());
        if (!doc)
          throw new HttpError(400, E.planDocumentationUnknown, {
            code: 'invalid_input',
            pointer: `/plans/${i}/documentation`,
          });
        const plan = p.plan ?? DEFAULT_PLAN;
        if (plan === doc.plan && doc.edited) continue;
        await catalogDb(trx)
          .updateTable('api_documentations')
          .set({ plan, plan_edited_at: new Date(), changed: new Date() })
          .where('id', '=', doc.rowId)
          .execute();
        await recordAudit(trx, actor, {
          action: 'documentation.plan_updated',
          targetType: 'api_documentation',
          targetId: doc.documentation,
          targetLabel: doc.title,
          before: { plan: doc.plan, product: product.uuid },
          after: { plan, product: product.uuid },
        });
      }
      const raised = await catalogDb(trx)
        .updateTable('api_products')
        .set((eb) => ({ plans_version: eb('plans_version', '+', 1) }))
        .where('id', '=', product.id)
        .returning('plans_version')
        .executeTakeFirstOrThrow();
      return { stale: false as const, version: raised.plans_version, plans: await plansOf(trx, product.id) };
    });
    if (saved.stale) {
      // The plans as saved meanwhile (the form shows each documentation's plan, so no field diff).
      const current = { version: saved.version, plans: json(saved.plans) };
      return sendConflict(reply, format(E.plansStale, { version: saved.version }), current, []);
    }
    reply.header('Cache-Control', 'no-store').header('ETag', etagOf(saved.version));
    return { data: json(saved.plans), meta: { version: saved.version } };
  });
}
