import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { changeSubscription, fetchMyApplications } from '../../lib/applications-api';
import { retryServerErrors } from './api-products';

/**
 * The parts of an application (apps/server/src/modules/applications/README.md) that subscribing
 * needs; the calls are the application screens' own (lib/applications-api.ts).
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
    queryFn: (): Promise<SubscribableApp[]> => fetchMyApplications(),
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
    mutationFn: (input: { application: string; product: string }): Promise<SubscribableApp> =>
      changeSubscription('subscribe', input.application, input.product),
    onSuccess: () => client.invalidateQueries({ queryKey: subscriptionKeys.apps }),
  });
}
