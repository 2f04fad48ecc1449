import { chatBotUrl } from '@portico/contracts/chat-bot';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { catalogDb } from './tables.ts';

/**
 * The origin of a documentation's chat bot (spec B 3 'bot_url'), or null for anything but an
 * absolute http(s) URL: the web app embeds only those (features/products/chat-bot-block.tsx), and the
 * Content-Security-Policy may name nothing else.
 */
export function chatBotOrigin(url: string | null | undefined): string | null {
  const parsed = chatBotUrl(url);
  if (!parsed) return null;
  // An origin is scheme, host and port: nothing in it can end a CSP source or start a directive.
  return /^https?:\/\/[a-z0-9.\-[\]:]+$/i.test(parsed.origin) ? parsed.origin : null;
}

/** The origins of every enabled chat bot of the catalog, each once, sorted. */
export async function chatBotOrigins(db: Db): Promise<string[]> {
  const rows = await catalogDb(db)
    .selectFrom('api_documentations')
    .select('bot_url')
    .where('bot_enabled', '=', true)
    .where('bot_url', 'is not', null)
    .execute();
  const origins = new Set(rows.flatMap((r) => chatBotOrigin(r.bot_url) ?? []));
  return [...origins].sort();
}

/**
 * `app.chatBotOrigins()`: the frame sources the web app's pages need (plugins/web-app.ts), read
 * again only when a catalog table changed (the catalog's change counter, decision 018), so a bot
 * enabled through any instance is allowed on the next page load everywhere.
 */
export function decorateChatBotOrigins(app: FastifyInstance): void {
  let known: { stamp: string; origins: Promise<string[]> } | undefined;
  app.decorate('chatBotOrigins', async () => {
    const stamp = (await app.publicAnswerCache.versions.read()).get('catalog') ?? '0';
    if (known?.stamp !== stamp) {
      const origins = chatBotOrigins(app.db);
      known = { stamp, origins };
      origins.catch(() => {
        if (known?.origins === origins) known = undefined;
      });
    }
    return known.origins;
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    chatBotOrigins(): Promise<string[]>;
  }
}
