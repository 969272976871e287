// Which bytes of a stored object a GET or HEAD of /files answers: the one range its `Range` header asks for, or all.
// range-parser (Express's own, also behind `res.sendFile`) reads the header: it knows the three forms (`a-b`, `a-`,
// `-n`), clamps an end past the object, and tells a malformed header (ignored) from an unsatisfiable one (416).
import parseRange from 'range-parser';
import type { ByteRange } from '../../../shared/storage/index.js';

/** `whole`: a 200 of the whole object; a range: a 206 of those bytes; `unsatisfiable`: a 416. */
export type Slice = ByteRange | 'whole' | 'unsatisfiable';

export function requestedSlice(
  headers: { range: string | undefined; ifRange: string | undefined },
  sizeBytes: number,
  etag: string,
): Slice {
  if (!headers.range) return 'whole';
  // If-Range: the range holds only while the caller's copy is this object. The ETag is strong and the only validator
  // answered (no Last-Modified), so anything else, a date or a weak tag included, asks for the whole object.
  if (headers.ifRange !== undefined && headers.ifRange !== etag) return 'whole';
  // Several ranges: the whole object, once. No multipart/byteranges answer, so however many ranges a request lists,
  // it costs at most the object's bytes; and a list is not parsed at all (range-parser takes 1.5 ms of CPU over the
  // 4,000 ranges a 16 KiB header holds; docs/security-review.md, round 17's sound list).
  if (headers.range.includes(',')) return 'whole';
  const ranges = parseRange(sizeBytes, headers.range);
  if (ranges === -1) return longSuffix(headers.range, sizeBytes) ?? 'unsatisfiable';
  // A malformed header or another unit: ignored, as RFC 9110 lets a server do.
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return 'whole';
  return ranges[0] as ByteRange;
}

/**
 * `bytes=-n` with n past the object's length asks for the whole object (RFC 9110 14.1.1: the suffix is then the entire
 * representation), which range-parser calls unsatisfiable (its start falls below 0): a 206 of every byte, or the
 * whole (empty) object when it has none.
 */
function longSuffix(range: string, sizeBytes: number): Slice | undefined {
  const suffix = /^bytes=\s*-\s*(\d+)\s*$/.exec(range)?.[1];
  if (suffix === undefined || Number(suffix) === 0) return undefined;
  return sizeBytes === 0 ? 'whole' : { start: 0, end: sizeBytes - 1 };
}
