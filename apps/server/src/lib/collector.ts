/**
 * V8's collector, called by the server itself once (decision 074). The `serve` script exposes it
 * under a name of its own (`--expose-gc-as=porticoCollectGarbage`), so that no library finds a
 * `gc` global to call.
 */
export const COLLECTOR_GLOBAL = 'porticoCollectGarbage';

type Collector = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * A full collection of this thread's heap that gives back what it can (V8's "last resort" flavour:
 * mark-compacts until nothing more is freed, then the empty pages returned to the system), when the
 * launch exposed the collector; answers whether it ran. The server calls it once, when its start is
 * done and before it listens: a start (migrations checked, the content imported, the plugins'
 * modules loaded) leaves tens of megabytes of garbage in the main thread's heap, which V8's own
 * memory reducer did not give back while the portal stood idle (bench/README.md, decision 074).
 */
export function reduceHeap(): boolean {
  const collect = (globalThis as Record<string, unknown>)[COLLECTOR_GLOBAL];
  if (typeof collect !== 'function') return false;
  (collect as Collector)({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return true;
}
