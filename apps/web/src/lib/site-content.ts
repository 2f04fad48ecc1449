import { useQuery } from '@tanstack/react-query';
import type { BlockLayout, CookiesConsent } from '@portico/contracts/site';
import { readerLanguage, type TranslationMarker } from '../components/content/translation';
import { apiRequest } from './api-client';
import { locale } from './i18n';

/** A site document in the page's language (decision 064): `translation` says which one is shown. */
export type Translated<T> = T & { translation?: TranslationMarker };

/** Site content shared by the layout and pages (GET /block-layout, GET /phpsdk/cookies-consent). */
export function useBlockLayout() {
  return useQuery({
    queryKey: ['block-layout', locale],
    queryFn: () =>
      apiRequest<Translated<BlockLayout>>('/block-layout', {
        query: { _format: 'json', ...readerLanguage() },
        format: 'json',
      }),
    staleTime: 5 * 60_000,
  });
}

export function useCookiesConsent() {
  return useQuery({
    queryKey: ['cookies-consent', locale],
    queryFn: () =>
      apiRequest<Translated<CookiesConsent>>('/phpsdk/cookies-consent', {
        query: { _format: 'json', ...readerLanguage() },
        format: 'json',
      }),
    staleTime: 5 * 60_000,
  });
}
