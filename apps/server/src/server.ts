import { buildApp } from './app.ts';
import { warmSandboxWorker } from './gateway/documents.ts';
import { reduceHeap } from './lib/collector.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirInUseError } from './db/data-dir-lock.ts';
import { SecretKeyMismatchError } from './lib/secret-box.ts';
import { StorageUnavailableError } from './lib/storage.ts';
import { DatabaseOpenError } from './plugins/db.ts';

/** Starts the portal: one process serving the web app, the portal API and the OAuth servers. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }

  let app;
  try {
    app = await buildApp({ config });
  } catch (err) {
    if (err instanceof DataDirInUseError) {
      console.error(err.message);
      process.exit(75); // EX_TEMPFAIL: try again once the other process has stopped
    }
    if (err instanceof StorageUnavailableError) {
      console.error(err.message);
      process.exit(75); // EX_TEMPFAIL: the bucket may become reachable
    }
    if (err instanceof SecretKeyMismatchError) {
      console.error(err.message);
      process.exit(78); // EX_CONFIG
    }
    if (err instanceof DatabaseOpenError) {
      console.error(err.message);
      process.exit(69); // EX_UNAVAILABLE: the database cannot be reached or migrated
    }
    throw err;
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // A request that never ends must not keep the process alive forever.
    const timer = setTimeout(() => {
      app.log.error('shutdown took longer than 15 s; exiting');
      process.exit(1);
    }, 15_000);
    timer.unref();
    try {
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  // The start's garbage given back before the first request (decision 074).
  reduceHeap();
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Portico is ready at ${config.publicUrl}`);
  // The sandbox's worker thread, started and loaded now rather than by the first call (decision 039).
  warmSandboxWorker().catch((err: unknown) =>
    app.log.warn({ err }, 'the sandbox worker was not warmed; the first call will start it'),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
