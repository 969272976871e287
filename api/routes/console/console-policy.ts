// The Content-Security-Policy of the console's pages: scripts and styles only from this origin (no inline script,
// no eval), API calls only to this origin, videos from this origin or the storage's public base, item icons from
// any https host. Issue-wide security headers (helmet) come from elsewhere; this header is the console's own.
import type { Config } from '../../../shared/config/index.js';

export function consoleContentSecurityPolicy(config: Pick<Config, 'STORAGE_PUBLIC_BASE_URL'>): string {
  const storage = config.STORAGE_PUBLIC_BASE_URL ? ` ${new URL(config.STORAGE_PUBLIC_BASE_URL).origin}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: https:",
    `media-src 'self'${storage} https:`,
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
