import { ApiError, csrfToken, errorMessage } from './api-client';

/**
 * POSTs `file` as the raw request body (every upload of the portal: decision 033) with
 * XMLHttpRequest, whose upload events give the progress fetch cannot report. `onProgress` gets the
 * share sent, 0 to 1. The session's CSRF token goes with it (fetched anew once when the session
 * changed); a refusal throws ApiError with the server's body, as apiRequest does. Used by the
 * console's API upload and its image dialog.
 */
export async function uploadWithProgress<T>(
  url: string,
  file: Blob,
  headers: Record<string, string>,
  onProgress: (share: number) => void,
): Promise<T> {
  const send = (token: string) =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', url);
      xhr.withCredentials = true;
      xhr.setRequestHeader('Content-Type', 'application/octet-stream');
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.setRequestHeader('X-CSRF-Token', token);
      for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
      };
      xhr.upload.onload = () => onProgress(1);
      xhr.onerror = () => reject(new TypeError('Network error'));
      xhr.onload = () => {
        let body: unknown = xhr.responseText;
        try {
          body = JSON.parse(xhr.responseText) as unknown;
        } catch {
          // not JSON: the text is the message
        }
        resolve({ status: xhr.status, body });
      };
      xhr.send(file);
    });
  let res = await send(await csrfToken());
  if (res.status === 403 && JSON.stringify(res.body).includes('"code":"csrf"'))
    res = await send(await csrfToken(true));
  if (res.status < 200 || res.status >= 300) throw new ApiError(res.status, errorMessage(res.body), res.body);
  return res.body as T;
}
