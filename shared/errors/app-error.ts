// The one error type of the service: a stable code, an HTTP status and a message, rendered per route family.
export type AppErrorOptions = {
  headers?: Record<string, string>;
  /** Extra fields a renderer may expose (e.g. per-field validation problems). */
  details?: Record<string, unknown>;
  cause?: unknown;
};

export class AppError extends Error {
  readonly headers: Record<string, string>;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.headers = options.headers ?? {};
    this.details = options.details;
  }
}

export const isAppError = (err: unknown): err is AppError => err instanceof AppError;

export const badRequest = (code: string, message: string, options?: AppErrorOptions) =>
  new AppError(code, 400, message, options);
/** A request body that is not JSON (body-parser's `entity.parse.failed`, and the lean lane's own parse). */
export const invalidJson = () => badRequest('Request.InvalidJson', 'The request body is not valid JSON.');
export const unauthorized = (message = 'Missing or invalid credentials.', code = 'Auth.Unauthorized') =>
  new AppError(code, 401, message);
export const forbidden = (message = 'You do not have permission to do this.', code = 'Auth.Forbidden') =>
  new AppError(code, 403, message);
export const notFound = (code: string, message: string) => new AppError(code, 404, message);
export const conflict = (code: string, message: string, options?: AppErrorOptions) =>
  new AppError(code, 409, message, options);
export const serviceUnavailable = (message = 'A backing service is unavailable; try again shortly.') =>
  new AppError('Service.Unavailable', 503, message, { headers: { 'retry-after': '1' } });
