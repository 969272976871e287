// A multipart upload with progress (fetch cannot report upload progress; XMLHttpRequest can). Same origin, so the
// session cookie goes along; the browser adds Origin and Sec-Fetch-Site, which the API's CSRF check reads.
import { ApiError, errorFrom } from './http.js';

export function uploadFile<T>(
  path: string,
  file: File,
  options: { field?: string; organizationId?: string; onProgress?: (fraction: number) => void } = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('accept', 'application/json');
    if (options.organizationId) xhr.setRequestHeader('x-organization-id', options.organizationId);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError(0, 'Network.Error', 'The upload did not reach the server.'));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress?.(1);
        resolve(body as T);
      } else {
        reject(errorFrom(xhr.status, body));
      }
    };
    const form = new FormData();
    form.append(options.field ?? 'file', file);
    xhr.send(form);
  });
}
