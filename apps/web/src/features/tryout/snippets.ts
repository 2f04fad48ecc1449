import { HTTPSnippet, type HarRequest } from 'httpsnippet-lite';
import type { BuiltRequest } from './request';
import { SNIPPET_TARGETS, type SnippetId } from './snippet-targets';

export function harOf(request: BuiltRequest): HarRequest {
  const url = new URL(request.url);
  const contentType =
    request.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? 'application/json';
  return {
    method: request.method,
    url: `${url.origin}${url.pathname}`,
    httpVersion: 'HTTP/1.1',
    headers: request.headers.map(([name, value]) => ({ name, value })),
    queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
    cookies: request.cookies.map(([name, value]) => ({ name, value })),
    headersSize: -1,
    bodySize: -1,
    ...(request.body !== null ? { postData: { mimeType: contentType, text: request.body } } : {}),
  } as HarRequest;
}

/** The request in one language. */
export async function snippet(request: BuiltRequest, id: SnippetId): Promise<string> {
  const t = SNIPPET_TARGETS.find((s) => s.id === id)!;
  const result = await new HTTPSnippet(harOf(request)).convert(t.target, t.client);
  if (Array.isArray(result)) return result.join('\n');
  return result ?? '';
}
