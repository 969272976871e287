// The worker's check of reference images: each is read (user URLs through the user-URL outbound client, never
// the upstream one; data URLs decoded) and must be a JPEG, PNG or WebP of at most 30 MB, 300-6000 px per side,
// aspect ratio 0.4-2.5. A failure is a clear message for the task's error.
import { imageSize } from 'image-size';
import type { Config } from '../config/index.js';
import { isOutboundRequestError, type OutboundClient, userUrlClient } from '../http/index.js';
import { MAX_IMAGE_BYTES } from './video-request.js';

const FORMATS = new Set(['jpg', 'png', 'webp']);
const MIN_SIDE = 300;
const MAX_SIDE = 6000;
const MIN_ASPECT = 0.4;
const MAX_ASPECT = 2.5;

const REFERENCE_IMAGES = { name: 'reference-images', timeoutMs: 30_000, maxBytes: MAX_IMAGE_BYTES, maxRedirects: 3 };

async function imageBytes(client: OutboundClient, url: string): Promise<Buffer> {
  if (url.startsWith('data:')) return Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
  let reply: Awaited<ReturnType<OutboundClient['fetchBuffer']>>;
  try {
    reply = await client.fetchBuffer(url);
  } catch (err) {
    if (isOutboundRequestError(err) && err.reason === 'too-large') throw new Error('it is larger than 30 MB');
    throw new Error(`the image URL is unreachable (${isOutboundRequestError(err) ? err.message : 'network error'})`);
  }
  if (reply.status !== 200) throw new Error(`the image URL is unreachable (HTTP ${reply.status})`);
  return reply.body;
}

/** Why the image is not acceptable, or null. */
export function imageProblem(bytes: Buffer): string | null {
  if (bytes.length > MAX_IMAGE_BYTES) return 'it is larger than 30 MB';
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    return 'it is not an image';
  }
  if (!size.type || !FORMATS.has(size.type)) return `its format (${size.type ?? 'unknown'}) is not JPEG, PNG or WebP`;
  const { width, height } = size;
  if (width < MIN_SIDE || height < MIN_SIDE) {
    return `it is too small (${width}x${height}; each side must be at least ${MIN_SIDE} px)`;
  }
  if (width > MAX_SIDE || height > MAX_SIDE) {
    return `it is too large (${width}x${height}; each side must be at most ${MAX_SIDE} px)`;
  }
  const aspect = width / height;
  if (aspect < MIN_ASPECT || aspect > MAX_ASPECT) {
    return `its aspect ratio ${aspect.toFixed(2)} (${width}x${height}) is outside ${MIN_ASPECT}-${MAX_ASPECT}`;
  }
  return null;
}

/** Checks every image in order; the message of the first failure, or null when all pass. */
export async function referenceImagesProblem(config: Config, urls: string[]): Promise<string | null> {
  const client = userUrlClient(config, REFERENCE_IMAGES);
  for (const [i, url] of urls.entries()) {
    let problem: string | null;
    try {
      problem = imageProblem(await imageBytes(client, url));
    } catch (err) {
      problem = (err as Error).message;
    }
    if (problem) return `Reference image ${i + 1} was refused: ${problem}.`;
  }
  return null;
}
