/**
 * Build-time settings of the web app. The API is served from the same origin as the web app, so
 * the base URL is empty unless a build points elsewhere (VITE_API_BASE_URL).
 */
export const env = {
  apiBaseUrl: (import.meta.env.VITE_API_BASE_URL as string | undefined) ?? '',
  /** Sent as Client-Id on every call, so that server logs tell the web app from other callers. */
  clientId: 'portico-web',
} as const;
