import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isWebRoute, matchesRoutePattern } from '@portico/contracts/web-routes';
import { errorDocument } from '../jsonapi/errors.ts';
import { requestUrl } from '../jsonapi/document.ts';
import { DEFAULT_LOCALE, isLocale, negotiateLocale, type Locale } from '@portico/contracts/locales';
import {
  LOCALE_COOKIE,
  alternatePaths,
  localizedPath,
  splitLocalePath,
} from '@portico/contracts/locale-path';
import { escapeHtml } from '../lib/html.ts';
import { documentationPageId } from '@portico/contracts/documentation-data';
import { dataPreloadLinks, preloadLink } from './data-preloads.ts';
import { mergeVary } from './http-cache.ts';
import { withFrameSources } from './security.ts';

/** Paths served by the portal API and the OAuth servers: never answered with the web app. */
export const API_PREFIXES = [
  '/jsonapi/',
  '/phpsdk/',
  '/api/',
  '/user/',
  '/session/',
  '/idp/',
  '/oauth/',
  '/sandbox/',
  '/secret/',
  '/openid-connect/',
  '/admin-api/',
  '/healthz',
  '/readyz',
];

/**
 * The top folders of the built web app (Vite's `assets`, and `images`, `animation`… copied from
 * apps/web/public): a path under one names a file, so a missing one (an old hash) is a real 404.
 * Existing files are answered by @fastify/static before this is asked. Anything else is a page,
 * whatever its shape: a documentation alias like `braze.com` ends like a file name.
 */
function assetFolders(dist: string): Set<string> {
  const folders = new Set(['assets']);
  try {
    for (const entry of fs.readdirSync(dist, { withFileTypes: true })) {
      if (entry.isDirectory()) folders.add(entry.name);
    }
  } catch {
    // Not built: only Vite's folder.
  }
  return folders;
}

function wantsWebApp(request: FastifyRequest, folders: Set<string>): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const url = request.url;
  if (API_PREFIXES.some((p) => url.startsWith(p))) return false;
  const query = request.query as Record<string, unknown> | undefined;
  if (query && '_format' in query) return false;
  const pathname = url.split('?', 1)[0] ?? '';
  const top = pathname.split('/')[1] ?? '';
  return !folders.has(top);
}

/**
 * index.html for a path, with a modulepreload hint for each script of the page's route that the
 * entry does not already preload: the build's route-chunks.json (apps/web/vite.config.ts) lists
 * them per route pattern. Without the hints the browser learns of the page's chunk only once the
 * entry has run. The most specific matching pattern wins (fewest parameters), as in the router; a
 * path no route of the web app matches gets the catch-all's (basic pages). The HTML of each pattern is built once.
 */
function routeHints(dist: string): (pathname: string) => string {
  const index = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  let routes: Record<string, string[]> = {};
  try {
    routes = JSON.parse(fs.readFileSync(path.join(dist, 'route-chunks.json'), 'utf8')) as Record<
      string,
      string[]
    >;
  } catch {
    // A build without the list: no hints, the page still works.
  }
  const dynamic = (pattern: string) =>
    pattern.split('/').filter((s) => s.startsWith(':') || s === '*').length;
  const patterns = Object.keys(routes).sort((a, b) => dynamic(a) - dynamic(b));
  const built = new Map<string, string>();
  return (pathname) => {
    const pattern =
      patterns.find((p) => p !== '*' && matchesRoutePattern(p, pathname)) ??
      (isWebRoute(pathname) ? '' : '*');
    let html = built.get(pattern);
    if (html === undefined) {
      const links = (routes[pattern] ?? [])
        .filter((file) => /^\/assets\/[\w.-]+\.js$/.test(file) && !index.includes(`"${file}"`))
        .map((file) => `<link rel="modulepreload" crossorigin href="${file}">`)
        .join('\n    ');
      html = links ? index.replace('</head>', `  ${links}\n  </head>`) : index;
      built.set(pattern, html);
    }
    return html;
  };
}

/**
 * The script that starts the app behind a first screen once the page is loaded and left alone
 * (apps/web/src/first-screen-start.ts, decision 068), as `/assets/<name>`; undefined when the build
 * has none (the entry then runs as it is written).
 */
function firstScreenStartScript(dist: string): string | undefined {
  try {
    const name = fs
      .readdirSync(path.join(dist, 'assets'))
      .find((f) => /^first-screen-start-[\w-]+\.js$/.test(f));
    return name && `/assets/${name}`;
  } catch {
    return undefined;
  }
}

/**
 * A page with a first screen (decision 068): neither the app's entry nor the route's modulepreloads
 * are in the HTML; `start` (a script of its own, with their addresses) fetches and runs them once
 * the page has been left alone, so that nothing of the app's (fetching, compiling, evaluating) is on
 * the main thread or the connections while a visitor first clicks on the screen.
 */
function deferAppEntry(html: string, start: string): string {
  const preloads: string[] = [];
  const without = html.replace(
    /[ \t]*<link rel="modulepreload" crossorigin href="(\/assets\/[\w.-]+\.js)">\n?/g,
    (_link, href: string) => {
      preloads.push(href);
      return '';
    },
  );
  return without.replace(
    /<script type="module" crossorigin src="(\/assets\/[\w.-]+\.js)"><\/script>/,
    (_tag, entry: string) =>
      `<script type="module" crossorigin src="${start}" data-app-entry="${entry}"` +
      ` data-app-preloads="${preloads.join(' ')}"></script>`,
  );
}

/** A year, as the web app keeps the cookie (apps/web/src/lib/locale-choice.ts). */
const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 3600;

/**
 * The language a page without a language prefix should be read in (decision 057): the visitor's
 * choice (the cookie), else on a first visit the browser's Accept-Language. English needs no
 * redirect; another language is its prefix's URL.
 */
function wantedLocale(request: FastifyRequest): { locale: Locale; chosen: boolean } {
  const chosen = request.cookies[LOCALE_COOKIE];
  if (isLocale(chosen)) return { locale: chosen, chosen: true };
  return { locale: negotiateLocale(request.headers['accept-language']), chosen: false };
}

/**
 * The page's language in the HTML shell (decision 057): `<html lang>`, and the page's address in
 * every language as `hreflang` alternates (the unprefixed English one is also x-default), so that
 * search engines list each language's page and shared links keep theirs.
 */
function withLanguage(html: string, locale: Locale, origin: string, path: string, search: string): string {
  const links = alternatePaths(path).map(
    (alt) =>
      `<link rel="alternate" hreflang="${alt.locale}" href="${escapeHtml(origin + alt.path + search)}">`,
  );
  links.push(
    `<link rel="alternate" hreflang="x-default" href="${escapeHtml(origin + localizedPath(DEFAULT_LOCALE, path) + search)}">`,
  );
  return html
    .replace(
      /<html\b([^>]*)>/,
      (_tag, attributes: string) => `<html${attributes.replace(/\s+lang="[^"]*"/, '')} lang="${locale}">`,
    )
    .replace('</head>', `  ${links.join('\n    ')}\n  </head>`);
}

/**
 * Serves the built web app: hashed assets cached for a year, index.html never cached, and every
 * other page path answered with index.html so the client router can take over (history fallback):
 * status 200 for a route of the web app (contracts/web-routes.ts) or a basic page, else 404.
 */
export default fp(
  async (app) => {
    const dist = app.config.webDist;
    const indexFile = path.join(dist, 'index.html');
    const built = fs.existsSync(indexFile);
    if (built) {
      await app.register(fastifyStatic, {
        root: dist,
        prefix: '/',
        wildcard: false,
        index: false,
        // The build writes .br and .gz beside each script and style sheet (apps/web/vite.config.ts).
        preCompressed: true,
        // Built asset names carry a content hash, so they never change: cache them for a year.
        cacheControl: false,
        setHeaders(reply, filePath) {
          const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
          reply.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    } else {
      app.log.warn({ dist }, 'the web app is not built: run `npm run build`');
    }

    const withHints = built ? routeHints(dist) : undefined;
    const startScript = built ? firstScreenStartScript(dist) : undefined;
    const folders = assetFolders(dist);

    const sendIndex = async (request: FastifyRequest, reply: FastifyReply, status = 200) => {
      // A page may be answered as Markdown instead, by its Accept header (modules/markdown).
      reply.header('Vary', mergeVary(reply.getHeader('vary'), 'Accept'));
      if (!withHints) {
        return reply
          .status(503)
          .type('text/plain')
          .send('The web app is not built yet. Run `npm run build`, then start the server again.');
      }
      // `/de/apiProducts` is the page `/apiProducts` in German: the rest goes by the page's path.
      const rawPath = request.url.split('?', 1)[0] ?? '/';
      const { locale, path: pathname } = splitLocalePath(rawPath);
      // The documentation page embeds the catalog's chat bots; the app navigates without loading
      // the document again, so every page of it allows them (plugins/security.ts sets the rest).
      const policy = reply.getHeader('content-security-policy');
      if (typeof policy === 'string') {
        reply.header('Content-Security-Policy', withFrameSources(policy, await app.chatBotOrigins()));
      }
      let html = withHints(status === 200 ? pathname : '/404');
      const search = request.url.slice(rawPath.length);
      const preloads = status === 200 ? dataPreloadLinks(pathname, search, locale) : [];
      if (preloads.length > 0) {
        // Before the scripts (else at the end of the head), so that the data's requests leave first.
        html = html.replace(/<script|<\/head>/, (tag) => `${preloads.join('\n    ')}\n    ${tag}`);
      }
      // The first screen in the page's language (catalog README 'Translations').
      const firstScreen =
        status === 200 ? await documentationFirstScreen(request, pathname, search, locale) : undefined;
      if (firstScreen) {
        html = html
          // The screen has its own style: the app's style sheets do not hold its first paint back;
          // the app attaches them before it renders (lib/first-screen.ts).
          .replace(
            /<link rel="stylesheet" crossorigin href="([^"]+)">/g,
            '<link rel="preload" as="style" crossorigin href="$1" data-app-style>',
          )
          // The first screen's operations after everything else the page needs first.
          .replace(
            '</head>',
            `${firstScreen.preloads.map((url) => `  ${preloadLink(url)}\n`).join('')}  </head>`,
          )
          .replace('<div id="root">', `${firstScreen.html}<div id="root">`)
          .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(firstScreen.title)}</title>`);
        if (startScript) html = deferAppEntry(html, startScript);
      }
      html = withLanguage(html, locale, requestUrl(request).origin, pathname, search);
      // The console's pages (a draft's documentation preview among them) are never indexed.
      if (/^\/admin(?:\/|$)/i.test(pathname)) reply.header('X-Robots-Tag', 'noindex, nofollow');
      return reply
        .status(status)
        .header('Cache-Control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(html);
    };

    /**
     * The documentation page's first screen (decision 043): read before the app has run, and
     * without it. A failure to write it costs the page nothing but that screen.
     */
    const documentationFirstScreen = async (
      request: FastifyRequest,
      pathname: string,
      search: string,
      locale: Locale,
    ) => {
      const id = documentationPageId(pathname);
      if (id === undefined) return undefined;
      try {
        return await app.documentationFirstScreen(pathname, id, search, locale);
      } catch (err) {
        request.log.warn({ err, pathname }, 'the documentation first screen could not be written');
        return undefined;
      }
    };

    /**
     * A page without a language prefix, for a visitor who reads another language: its URL in that
     * language (302). On a first visit (no cookie) Accept-Language decides and the cookie keeps
     * the answer, so that the redirect happens once and the switcher's choice decides thereafter.
     */
    const redirectToLanguage = (request: FastifyRequest, reply: FastifyReply): boolean => {
      const [pathname = '/', ...rest] = request.url.split('?');
      if (splitLocalePath(pathname).locale !== DEFAULT_LOCALE) return false;
      const { locale, chosen } = wantedLocale(request);
      reply.header('Vary', mergeVary(reply.getHeader('vary'), 'Accept-Language, Cookie'));
      if (locale === DEFAULT_LOCALE) return false;
      if (!chosen) {
        reply.setCookie(LOCALE_COOKIE, locale, {
          path: '/',
          maxAge: LOCALE_COOKIE_MAX_AGE,
          sameSite: 'lax',
        });
      }
      const search = rest.length > 0 ? `?${rest.join('?')}` : '';
      void reply.header('Cache-Control', 'no-store').redirect(localizedPath(locale, pathname) + search, 302);
      return true;
    };

    app.get('/', (request, reply) => {
      if (redirectToLanguage(request, reply)) return reply;
      return sendIndex(request, reply);
    });

    // A path no page answers gets the web app with status 404 (its 404 page sets the meta marker),
    // so that crawlers and monitors see it: neither a route of the web app nor a basic page.
    app.setNotFoundHandler(async (request, reply) => {
      if (wantsWebApp(request, folders)) {
        // A page's Markdown: its path + `.md`, or Accept preferring text/markdown (modules/markdown).
        if (await app.answerMarkdown(request, reply)) return reply;
        const pathname = splitLocalePath(request.url.split('?', 1)[0] ?? '/').path;
        const exists = isWebRoute(pathname) || (await app.basicPageExists(pathname));
        if (exists && redirectToLanguage(request, reply)) return reply;
        return sendIndex(request, reply, exists ? 200 : 404);
      }
      return reply
        .status(404)
        .type('application/vnd.api+json')
        .send(errorDocument({ status: 404, message: 'The requested resource was not found.' }));
    });
  },
  { name: 'web-app', dependencies: ['pages', 'catalog', 'markdown'] },
);
