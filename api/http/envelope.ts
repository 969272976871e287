// Success bodies of the organization family (SPEC section 0): `{data, code, error: null}`, `code` = HTTP status.
// Errors get the same envelope from the family's error renderer.
import type { Response } from 'express';

export function sendData(res: Response, data: unknown, status = 200, extra: Record<string, unknown> = {}): void {
  res.status(status).json({ data, code: status, error: null, ...extra });
}

/** A page of a list: `{data: [...], code, error, total, page, size}`. */
export function sendPage(res: Response, data: unknown[], page: { total: number; page: number; size: number }): void {
  sendData(res, data, 200, { total: page.total, page: page.page, size: page.size });
}
