import type { ConsoleDashboard } from '@portico/contracts/console-dashboard';
import { apiRequest } from '../../lib/api-client';

export interface DashboardRange {
  from: string;
  to: string;
}

/** `GET /admin-api/dashboard` (administrators). */
export async function fetchDashboard(range: DashboardRange): Promise<ConsoleDashboard> {
  const doc = await apiRequest<{ data: { attributes: ConsoleDashboard } }>('/admin-api/dashboard', {
    query: { from: range.from, to: range.to },
  });
  return doc.data.attributes;
}
