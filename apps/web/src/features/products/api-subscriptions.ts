import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';
import { retryServerErrors } from './api-products';

/**
 * The parts of an application (apps/server/src/modules/applications/README.md) that subscribing
 * needs. Kept here rather than imported from the applications feature: features stay apart.
 */
export interface SubscribableApp {
  uuid: string;
  title: string;
  applicationStatus: 'DEVELOPMENT' | 'PRODUCTION';
  clientId: { development: string | null; production: string | null };
  subscriptionIds: string[];
  organization: { uuid: string; title: string } | null;
  permissions: { update: boolean };
}

export const subscriptionKeys = {
  apps: ['products', 'my-applications'] as const,
};

/** Every application the signed-in user may see, across organizations (first 50). */
export function useMyApplications(enabled: boolean) {
  return useQuery({
    queryKey: subscriptionKeys.apps,
    queryFn: () =>
      apiRequest<{ data: SubscribableApp[] }>('/phpsdk/organization/apps', {
        format: 'json',
        query: { 'page[limit]': 50 },
      }),
    enabled,
    retry: retryServerErrors,
  });
}

/**
 * POST /api/application { type: 'subscribe', application, product } (spec B 7; 200 is success).
 * The spec's subscribe flow: loading while pending, the error kept, subscribed on success.
 */
export function useSubscribe() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { application: string; product: string }) =>
      apiRequest<{ data: SubscribableApp }>('/api/application', {
        method: 'POST',
        format: 'json',
        body: { type: 'subscribe', application: input.application, product: input.product },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: subscriptionKeys.apps }),
  });
}
