import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../lib/api-client';
import { getOrganization, organizationKeys } from './api';

/**
 * The organization of the page's :organizationId. `missing` covers both an unknown id and one the
 * caller may not see (the server answers 404 for both, so existence does not leak).
 */
export function useOrganization(id: string) {
  const query = useQuery({
    queryKey: organizationKeys.one(id),
    queryFn: () => getOrganization(id),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });
  const missing =
    query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
  return { ...query, missing };
}
