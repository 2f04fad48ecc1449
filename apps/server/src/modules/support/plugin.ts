import fp from 'fastify-plugin';
import { contactRoutes } from './contact-routes.ts';
import { ticketRoutes } from './ticket-routes.ts';
import { fileRoutes } from './file-routes.ts';
import { staffRoutes } from './staff-routes.ts';
import { scheduleUploadCleanup } from './upload-cleanup.ts';

/**
 * The support area of spec B (issue 14): the contact form with its self-hosted captcha, support
 * tickets and the provider's queue. Every endpoint is listed in README.md.
 */
export default fp(
  async (app) => {
    // Their rate limits' 429s carry Retry-After (lib/rate-limit.ts TooManyRequests, app.ts).
    await app.register(async (scope) => {
      await contactRoutes(scope);
      await ticketRoutes(scope);
      await fileRoutes(scope);
      await staffRoutes(scope);
    });
    // Attachments uploaded for a ticket that was never created (upload-cleanup.ts).
    scheduleUploadCleanup(app);
  },
  { name: 'support', dependencies: ['session', 'services', 'db'] },
);
