import { contactMessageSchema } from '@portico/contracts/support';
import type { FastifyInstance } from 'fastify';
import { captchaSecrets, sendContactMessage } from './service.ts';
import { newChallenge } from './captcha.ts';
import { parseBody } from '../../lib/validation.ts';
import { texts } from '../../lib/i18n.ts';
import { requestLocale } from '../../lib/locale.ts';

/** The contact form and its captcha (README.md). */
export async function contactRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/captcha/challenge', async (_request, reply) => {
    const challenge = await newChallenge(captchaSecrets(app), app.config.captcha);
    return reply.header('Cache-Control', 'no-store').send(challenge);
  });

  app.post('/contact_message', async (request, reply) => {
    const input = parseBody(contactMessageSchema, request.body);
    const { uuid } = await sendContactMessage(app, input, { user: request.user, ip: request.ip });
    // The confirmation reaches the user: in the request's language (decision 058), like errors.
    const locale = requestLocale(request, request.user?.preferredLangcode);
    return reply
      .status(201)
      .header('Vary', 'Accept-Language, Cookie')
      .header('Content-Language', locale)
      .send({
        uuid: [{ value: uuid }],
        contact_form: [{ target_id: input.contact_form }],
        message: texts(locale, 'errors', 'support')('sent'),
      });
  });
}
