import type { ConsoleImage, ConsoleImageList } from '@portico/contracts/console-images';
import { apiRequest, apiUrl } from '../../lib/api-client';
import { uploadWithProgress } from '../../lib/upload';

/** The console's image calls (apps/server/src/modules/console-images/README.md). */

export const listImages = (limit: number) =>
  apiRequest<ConsoleImageList>('/admin-api/images', { format: 'json', query: { 'page[limit]': limit } });

/** Uploads `file` as it is (the server checks its bytes); `onProgress` gets the share sent, 0 to 1. */
export async function uploadImage(file: File, onProgress: (share: number) => void): Promise<ConsoleImage> {
  const disposition = `file; filename*=UTF-8''${encodeURIComponent(file.name)}`;
  return (
    await uploadWithProgress<{ data: ConsoleImage }>(
      apiUrl('/admin-api/images'),
      file,
      { 'Content-Disposition': disposition },
      onProgress,
    )
  ).data;
}

/** Deletes an uploaded image; one that content still shows is refused (ApiError 409 naming where). */
export const deleteImage = (id: string) =>
  apiRequest<undefined>(`/admin-api/images/${encodeURIComponent(id)}`, { method: 'DELETE', format: 'json' });
