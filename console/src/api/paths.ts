// API paths built from route parameters and ids. React Router decodes `%2F` inside a route parameter
// (`/org/projects/..%2F..%2Fx` gives projectId `../../x`), so a parameter put into a fetch path as it is could send a
// same-origin request, with the session cookie, to another route. Every parameter goes through encodeURIComponent
// here and stays one path segment; `.` and `..`, which URL parsing would still resolve, are refused.
import { isUuid } from '../../../shared/validation/uuid.js';
import { ApiError } from './http.js';

export { isUuid };

/** apiPath`/api/projects/${projectId}/members`: the literal parts as written, every parameter encoded. */
export function apiPath(parts: TemplateStringsArray, ...params: (string | number)[]): string {
  let path = parts[0] ?? '';
  params.forEach((param, i) => {
    const segment = encodeURIComponent(String(param));
    // URL parsing resolves these (also as %2E) whatever the encoding: no path may be built from them.
    if (segment === '' || /^(\.|%2e){1,2}$/i.test(segment)) {
      throw new ApiError(404, 'Route.NotFound', 'This address names nothing.');
    }
    path += segment + (parts[i + 1] ?? '');
  });
  return path;
}

/** What the API answers for an id that names nothing, said without asking it (a malformed id names nothing). */
export const notFoundError = (code: string, message: string) => new ApiError(404, code, message);
