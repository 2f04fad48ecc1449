import { ANALYTICS_COOKIES, COOKIE_EXPIRY_DAYS } from '@portico/contracts/constants';

/** The consent answer is also kept as a cookie for COOKIE_EXPIRY_DAYS (spec B 4, 9). */
export const CONSENT_COOKIE = 'cookieconsent_status';

export function writeConsentCookie(action: 'accept' | 'dismiss', expiryDays = COOKIE_EXPIRY_DAYS): void {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${CONSENT_COOKIE}=${action}; Max-Age=${expiryDays * 86400}; Path=/; SameSite=Lax${secure}`;
}

/**
 * Declining analytics deletes _ga, _gid, _gat and AMP_TOKEN (spec B 4). Analytics scripts set
 * them on the host or on the parent domain, so each name is expired on every candidate domain.
 */
export function deleteAnalyticsCookies(): void {
  const host = location.hostname;
  const parts = host.split('.');
  const domains = [''];
  for (let i = 0; i < parts.length - 1; i++) domains.push(`; Domain=.${parts.slice(i).join('.')}`);
  const present = new Set(document.cookie.split(';').map((c) => c.split('=')[0]?.trim() ?? ''));
  for (const name of present) {
    const analytics = (ANALYTICS_COOKIES as readonly string[]).includes(name) || name.startsWith('_ga_');
    if (!analytics) continue;
    for (const domain of domains) {
      document.cookie = `${name}=; Max-Age=0; Path=/${domain}`;
    }
  }
}
