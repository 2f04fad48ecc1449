import type { GoLiveStatus } from '@portico/contracts/applications';
import { apiRequest } from '../../lib/api-client';

/** A go-live request as the provider's review lists it (applications module README, `go_live_request`). */
export interface GoLiveRequest {
  id: string;
  attributes: {
    id: number;
    title: string;
    status: GoLiveStatus;
    reason: string | null;
    created: string;
    decidedAt: string | null;
    form: {
      developerType: string;
      firstName: string;
      lastName: string;
      companyName: string;
      address: string;
      email: string;
      siteUrl: string;
      useCases: string;
    };
    application: {
      uuid: string;
      nid: number;
      title: string;
      status: string;
      clientId: { development: string | null; production: string | null };
      subscriptions: {
        uuid: string;
        title: string;
        version: string | null;
        psd2CertificateRequired: boolean;
      }[];
    } | null;
    organization: {
      uuid: string;
      id: number;
      title: string;
      documents: {
        uuid: string;
        fileName: string;
        fileSize: number;
        mime: string;
        url: string;
        created: string;
      }[];
    } | null;
    /** Kept after the application is deleted. */
    applicationTitle?: string;
    requestedBy: { uuid: string; name: string; email: string } | null;
    decidedBy: { uuid: string; name: string; email: string } | null;
  };
}

export interface GoLivePage {
  data: GoLiveRequest[];
  meta: { count: number };
}

export const REVIEW_PAGE_SIZE = 20;

export function fetchGoLiveRequests(status: GoLiveStatus | null, page: number): Promise<GoLivePage> {
  return apiRequest<GoLivePage>('/admin-api/go-live', {
    query: { status, 'page[limit]': REVIEW_PAGE_SIZE, 'page[offset]': page * REVIEW_PAGE_SIZE },
  });
}

export async function decide(
  id: string,
  decision: 'approve' | 'reject',
  reason?: string,
): Promise<GoLiveRequest> {
  const res = await apiRequest<{ data: GoLiveRequest }>(
    `/admin-api/go-live/${encodeURIComponent(id)}/${decision}`,
    {
      method: 'POST',
      format: 'json',
      body: decision === 'reject' ? { reason } : {},
    },
  );
  return res.data;
}
