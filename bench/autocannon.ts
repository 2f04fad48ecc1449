/**
 * autocannon (no types of its own), started and read the same way by every throughput benchmark.
 */
import { createRequire } from 'node:module';

/** What the benchmarks read of autocannon's result. */
export interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  /** Seconds, measured here (autocannon's own is in whole seconds). */
  duration: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
}

export interface CannonOptions {
  url: string;
  connections: number;
  /** Seconds to run; or `amount`: the number of requests to send. */
  duration?: number;
  amount?: number;
  headers?: Record<string, string>;
}

type Cannon = (options: CannonOptions & { sampleInt?: number }) => Promise<CannonResult>;
const cannon = createRequire(import.meta.url)('autocannon') as Cannon;

/**
 * One autocannon run. A run of `amount` requests is sampled every 10 ms, so that its end is
 * noticed then rather than at the next whole second; `requests.average` is then per 10 ms, and
 * `2xx / duration` is the rate. A run of `duration` seconds is sampled every second.
 */
export async function autocannon(options: CannonOptions): Promise<CannonResult> {
  const started = performance.now();
  const result = await cannon({ ...(options.amount ? { sampleInt: 10 } : {}), ...options });
  return { ...result, duration: (performance.now() - started) / 1000 };
}
