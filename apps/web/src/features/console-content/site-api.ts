import type {
  SiteDocument,
  SiteDocumentChange,
  SiteDocumentKey,
  SiteRevision,
  SiteSaveMode,
} from '@portico/contracts/console-site';
import { apiRequest } from '../../lib/api-client';

/** The console's calls for the site's texts (modules/site/README.md 'Console'). */

const BASE = '/admin-api/site';

export const getSiteDocument = <K extends SiteDocumentKey>(key: K) =>
  apiRequest<{ data: SiteDocument<K> }>(`${BASE}/${key}`, { format: 'json' });

/** Publishes the content, or keeps it as the pending version (a draft, or scheduled at `publishAt`). */
export const saveSiteDocument = <K extends SiteDocumentKey>(
  key: K,
  content: SiteDocument<K>['content'],
  version: number,
  mode: SiteSaveMode = 'publish',
  publishAt: string | null = null,
) =>
  apiRequest<{ data: SiteDocument<K> }>(`${BASE}/${key}`, {
    method: 'PUT',
    format: 'json',
    body: mode === 'schedule' ? { content, version, mode, publishAt } : { content, version, mode },
  });

/** Drops the pending version: the live document stays. */
export const discardSiteDraft = <K extends SiteDocumentKey>(key: K, version: number) =>
  apiRequest<{ data: SiteDocument<K> }>(`${BASE}/${key}/draft`, {
    method: 'DELETE',
    format: 'json',
    body: { version },
  });

export const listSiteRevisions = (key: SiteDocumentKey) =>
  apiRequest<{ data: SiteRevision[] }>(`${BASE}/${key}/revisions`, { format: 'json' });

export const restoreSiteRevision = <K extends SiteDocumentKey>(key: K, revision: number, version: number) =>
  apiRequest<{ data: SiteDocument<K> }>(`${BASE}/${key}/revisions/${revision}/restore`, {
    method: 'POST',
    format: 'json',
    body: { version },
  });

/** The body of a 409: the document saved meanwhile and the lines that differ from what was sent. */
export interface SiteConflict<K extends SiteDocumentKey = SiteDocumentKey> {
  current: SiteDocument<K>;
  changes: SiteDocumentChange[];
}
