/**
 * The chat bot's address (spec B 3 'bot_url'): only an absolute http(s) URL is embedded, so a
 * `javascript:` or `data:` value from the catalog can never run in the page or in the frame. The
 * server allows the same addresses' origins as the web app's frame sources (its CSP), so both
 * sides must read the rule from here.
 */
export function chatBotUrl(raw: string | null | undefined): URL | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}
