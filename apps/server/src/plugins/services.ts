import fp from 'fastify-plugin';
import { scheduleFileRemoval } from '../lib/file-removal.ts';
import { createMailer, type Mailer } from '../lib/mailer.ts';
import { createSecretBox, loadSecretKey, type SecretBox } from '../lib/secret-box.ts';
import { openStorage, type FileStorage } from '../lib/storage.ts';

/** Shared services every module may use: secret encryption, outgoing mail and file storage. */
export default fp(
  async (app) => {
    const secretBox = createSecretBox(loadSecretKey(app.config.secretKey, app.config.dataDir));
    const mailer = createMailer(app.db, { smtpUrl: app.config.smtpUrl, from: app.config.mailFrom });
    const storage = await openStorage(app.config.storage);
    app.decorate('secretBox', secretBox);
    app.decorate('mailer', mailer);
    app.decorate('storage', storage);
    app.addHook('onClose', async () => mailer.close());
    app.addHook('onClose', async () => storage.close());
    // A storage the portal cannot use stops the start, like a database it cannot reach.
    await storage.check();
    // The stored files of deleted rows (any module's, any instance's, SQL's): lib/file-removal.ts.
    scheduleFileRemoval(app);
  },
  { name: 'services', dependencies: ['db'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    secretBox: SecretBox;
    mailer: Mailer;
    /** Uploaded files: the folder DATA_DIR/files, or the S3 bucket of STORAGE_URL. */
    storage: FileStorage;
  }
}
