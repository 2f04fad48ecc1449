import type { FastifyInstance } from 'fastify';

/**
 * Runs `task` when the server is ready and then every `intervalMs`, in the background (a start
 * never waits for it, and a run never overlaps the previous one); closing the server waits for a
 * run in progress. A failure is logged as `what failed`, and the next run tries again.
 */
export function runInBackground(
  app: FastifyInstance,
  intervalMs: number,
  what: string,
  task: () => Promise<void>,
): void {
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= task()
      .catch((err: unknown) => app.log.warn({ err }, `${what} failed`))
      .finally(() => {
        running = undefined;
      });
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    run();
    timer = setInterval(run, intervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
