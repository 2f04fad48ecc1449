import { useEffect, useState, useSyncExternalStore } from 'react';
import { MESSAGE_TIMEOUT_MS } from '@portico/contracts/constants';
import { t } from '../../lib/i18n';
import { ApiError } from '../../lib/api-client';
import { UploadQueue, type UploadProblem } from './upload-queue';

/** The title and detail of a failed upload: the server's error entry, else the spec's wording. */
export function uploadProblem(error: unknown): UploadProblem {
  if (error instanceof ApiError) {
    const first = (error.body as { errors?: { title?: string; detail?: string }[] } | undefined)?.errors?.[0];
    const title = first?.title ?? error.serverMessage ?? t('organizations.uploadFailed');
    const detail = first?.detail && first.detail !== title ? first.detail : undefined;
    return detail ? { title, detail } : { title };
  }
  if (error && typeof error === 'object' && 'title' in error && typeof error.title === 'string') {
    const detail = (error as { detail?: unknown }).detail;
    return typeof detail === 'string' ? { title: error.title, detail } : { title: error.title };
  }
  return { title: t('organizations.uploadFailed') };
}

/** One queue per component, its entries as React state. */
export function useUploadQueue<F extends { name: string }>() {
  const [queue] = useState(() => new UploadQueue<F>({ ttlMs: MESSAGE_TIMEOUT_MS, describe: uploadProblem }));
  useEffect(() => () => queue.dispose(), [queue]);
  const snapshot = useSyncExternalStore(queue.subscribe, queue.getSnapshot);
  return { queue, ...snapshot };
}
