/**
 * Test helper: a query string as Fastify's default parser hands it to a route (flat bracket keys,
 * a repeated key as an array), without starting Fastify.
 */
export function asFastifyQuery(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    const had = out[key];
    out[key] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return out;
}
