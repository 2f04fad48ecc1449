import type { Application } from '@portico/contracts/applications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { analyticsEnabled, fetchApplication } from './api';

/** Query keys of this feature, in one place so that mutations invalidate the right ones. */
export const applicationKeys = {
  all: ['applications'] as const,
  one: (id: string) => ['application', id] as const,
  analyticsEnabled: ['app-analytics', 'enabled'] as const,
};

/** The organization query parameter every application screen requires (spec A 2). */
export function useOrganizationParam(): string | null {
  const [params] = useSearchParams();
  return params.get('organization') || null;
}

export function useApplication(id: string, organization: string | null) {
  return useQuery({
    queryKey: applicationKeys.one(id),
    queryFn: () => fetchApplication(id, organization),
  });
}

/** After a change the server answers the whole application: put it in the cache, refetch lists. */
export function useApplicationCache() {
  const client = useQueryClient();
  return {
    put(app: Application) {
      client.setQueryData(applicationKeys.one(app.uuid), app);
      void client.invalidateQueries({ queryKey: applicationKeys.all });
    },
    /** Refetch one application (spec A 4: after subscribing the application is refetched). */
    refetch(id: string) {
      return client.invalidateQueries({ queryKey: applicationKeys.one(id) });
    },
    remove(id: string) {
      client.removeQueries({ queryKey: applicationKeys.one(id) });
      void client.invalidateQueries({ queryKey: applicationKeys.all });
    },
  };
}

export function useAnalyticsEnabled(enabled: boolean) {
  return useQuery({ queryKey: applicationKeys.analyticsEnabled, queryFn: analyticsEnabled, enabled });
}

/** `/application/{uuid}?organization=...` (spec A 2: the organization parameter is kept). */
export function applicationPath(uuid: string, organization: string | null, extra?: Record<string, string>) {
  const q = new URLSearchParams();
  if (organization) q.set('organization', organization);
  for (const [k, v] of Object.entries(extra ?? {})) q.set(k, v);
  const s = q.toString();
  return `/application/${uuid}${s ? `?${s}` : ''}`;
}
