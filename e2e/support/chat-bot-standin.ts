/**
 * A small chat bot page on its own origin, standing in for a provider's bot (spec B 2.12 chat bot
 * block): e2e/start-portal.ts starts it and gives one demo documentation a bot at its address, so
 * the browser tests see the block frame another origin under the portal's real
 * Content-Security-Policy. The page says which documentation and operation it was opened for.
 */
import http from 'node:http';

/** The documentation that gets the bot in the browser tests (no other test opens its page). */
export const BOT_DOCUMENTATION = 'fx-rates-v2';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startChatBotStandIn(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://standin');
    if (url.pathname !== '/bot') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const documentation = url.searchParams.get('documentation') ?? '';
    const operation = url.searchParams.get('operation') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>API assistant</title></head>
<body><main aria-label="API assistant">
<h1>API assistant</h1>
<p data-testid="bot-context">Documentation: ${escape(documentation)}; operation: ${escape(operation || 'none')}</p>
<form><label>Your question <input name="q"></label> <button>Ask</button></form>
</main></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('the chat bot stand-in did not start');
  return {
    url: `http://127.0.0.1:${address.port}/bot`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A copy of the demo content whose BOT_DOCUMENTATION has the bot at `botUrl`. */
export function withChatBot(catalogYaml: string, botUrl: string): string {
  const spec = `    spec: openapi/${BOT_DOCUMENTATION}.json\n`;
  if (!catalogYaml.includes(spec)) throw new Error(`no documentation ${BOT_DOCUMENTATION} to give a bot`);
  return catalogYaml.replace(spec, `${spec}    bot: { enabled: true, url: '${botUrl}' }\n`);
}
