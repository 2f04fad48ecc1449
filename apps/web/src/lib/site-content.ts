import { useQuery } from '@tanstack/react-query';
import type { BlockLayout, CookiesConsent } from '@portico/contracts/site';
import { apiRequest } from './api-client';

/** Site content shared by the layout and pages (GET /block-layout, GET /phpsdk/cookies-consent). */
export function useBlockLayout() {
  return useQuery({
    queryKey: ['block-layout'],
    queryFn: () => apiRequest<BlockLayout>('/block-layout', { query: { _format: 'json' }, format: 'json' }),
    staleTime: 5 * 60_000,
  });
}

export function useCookiesConsent() {
  return useQuery({
    queryKey: ['cookies-consent'],
    queryFn: () =>
      apiRequest<CookiesConsent>('/phpsdk/cookies-consent', { query: { _format: 'json' }, format: 'json' }),
    staleTime: 5 * 60_000,
  });
}
