import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { paths } from '../../config/paths';
import { syncSession } from '../../lib/session';

/**
 * On entry to each page, ask the server for the token and the login status (spec B 2.1), so a
 * session that ended on the server shows the expiry modal and protected pages never trust a stale
 * browser state. The login pages run their own flow.
 */
export function SessionSync() {
  const { pathname } = useLocation();
  useEffect(() => {
    if (pathname === paths.login || pathname === paths.loginCallback) return;
    syncSession().catch((err: unknown) => console.warn('session check failed', err));
  }, [pathname]);
  return null;
}
