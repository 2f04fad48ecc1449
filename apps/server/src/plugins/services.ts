import fp from 'fastify-plugin';
import { createMailer, type Mailer } from '../lib/mailer.ts';
import { createSecretBox, loadSecretKey, type SecretBox } from '../lib/secret-box.ts';

/** Shared services every module may use: secret encryption and outgoing mail. */
export default fp(
  async (app) => {
    const secretBox = createSecretBox(loadSecretKey(app.config.secretKey, app.config.dataDir));
    const mailer = createMailer(app.db, { smtpUrl: app.config.smtpUrl, from: app.config.mailFrom });
    app.decorate('secretBox', secretBox);
    app.decorate('mailer', mailer);
    app.addHook('onClose', async () => mailer.close());
  },
  { name: 'services', dependencies: ['db'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    secretBox: SecretBox;
    mailer: Mailer;
  }
}
