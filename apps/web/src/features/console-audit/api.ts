import { apiRequest, apiUrl } from '../../lib/api-client';

/** An entry of the audit log as `GET /admin-api/audit` sends it (`audit--entry`). */
export interface AuditEntry {
  type: 'audit--entry';
  id: string;
  attributes: {
    at: string;
    action: string;
    actor: { id: string | null; email: string | null; provider: boolean };
    targetType: string;
    targetId: string | null;
    targetLabel: string | null;
    organization: { id: string; label: string } | null;
    before: unknown;
    after: unknown;
    /** Left out of an organization's part. */
    ip?: string | null;
  };
}

export interface AuditList {
  data: AuditEntry[];
  meta: { count: number; actions?: string[] };
  links: { next?: { href: string }; prev?: { href: string } };
}

/** The console's filters, as the page's URL and the API name them. */
export interface AuditFilters {
  action?: string;
  actor?: string;
  target_type?: string;
  from?: string;
  to?: string;
}

export const AUDIT_PAGE_SIZE = 25;
export const FILTER_NAMES = ['action', 'actor', 'target_type', 'from', 'to'] as const;

function filterQuery(filters: AuditFilters): Record<string, string> {
  const query: Record<string, string> = {};
  for (const name of FILTER_NAMES) {
    const value = filters[name]?.trim();
    if (value) query[`filter[${name}]`] = value;
  }
  return query;
}

export function listAudit(filters: AuditFilters, page: number): Promise<AuditList> {
  return apiRequest<AuditList>('/admin-api/audit', {
    query: {
      ...filterQuery(filters),
      'page[limit]': AUDIT_PAGE_SIZE,
      'page[offset]': page * AUDIT_PAGE_SIZE,
    },
  });
}

/** The CSV export of the same filters: a plain link (the session cookie goes with it). */
export function auditCsvUrl(filters: AuditFilters): string {
  return apiUrl('/admin-api/audit.csv', filterQuery(filters));
}
