// The console's only way to the API: same-origin fetch (the HttpOnly session cookie goes along by itself), JSON in
// and out, and one error type carrying what the API said, whatever the route family's error shape.
export type FieldError = { path: string; message: string };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fieldErrors: FieldError[] = [],
    readonly problems: string[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** The organization the request acts in (`X-Organization-Id`). */
  organizationId?: string | undefined;
  query?: Record<string, string | number | boolean | undefined | null>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

export function withQuery(path: string, query: RequestOptions['query'] = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

type ErrorBody = {
  title?: string;
  detail?: string;
  errors?: FieldError[];
  problems?: string[];
  error?: { code?: string; message?: string; type?: string } | null;
};

/** Reads the error of any route family: problem+json, the organization envelope, or a gateway error. */
export function errorFrom(status: number, body: unknown): ApiError {
  const b = (body ?? {}) as ErrorBody;
  if (b.title && b.detail !== undefined) return new ApiError(status, b.title, b.detail, b.errors, b.problems);
  if (b.error && typeof b.error === 'object') {
    return new ApiError(status, b.error.code ?? b.error.type ?? `HTTP ${status}`, b.error.message ?? 'Request failed.');
  }
  return new ApiError(status, `HTTP ${status}`, `The server answered ${status}.`);
}

async function parse(res: Response): Promise<unknown> {
  if (res.status === 204) return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) return res.json();
  const text = await res.text();
  return text === '' ? undefined : text;
}

/** The answer's status beside its body, for routes whose success status says something (201 done, 200 done before). */
export async function apiResponse<T>(path: string, options: RequestOptions = {}): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.organizationId) headers['x-organization-id'] = options.organizationId;
  const res = await fetch(withQuery(path, options.query), {
    method: options.method ?? 'GET',
    headers,
    credentials: 'same-origin',
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const body = await parse(res);
  if (!res.ok) throw errorFrom(res.status, body);
  return { status: res.status, body: body as T };
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiResponse<T>(path, options)).body;
}

/** The organization family's success envelope `{data, code, error, ...page}`. */
export type Envelope<T> = { data: T; code: number; error: null; total?: number; page?: number; size?: number };

export async function apiData<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await api<Envelope<T>>(path, options)).data;
}

/** A page of the catalog family: `{items, page, pageSize, total, hasNext}`. */
export type CatalogPage<T> = { items: T[]; page: number; pageSize: number; total: number; hasNext: boolean };
