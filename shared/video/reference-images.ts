// The worker's check of reference images: each is read (user URLs through the user-URL outbound client, never
// the upstream one; data URLs decoded) and must be a JPEG, PNG or WebP of at most 30 MB, 300-6000 px per side,
// aspect ratio 0.4-2.5. A failure is a clear message for the task's error.
import { imageSize } from 'image-size';
import type { Config } from '../config/index.js';
import { isOutboundRequestError, type OutboundClient, userUrlClient } from '../http/index.js';
import { base64Bytes, MAX_IMAGE_BYTES } from './video-request.js';

const FORMATS = new Set(['jpg', 'png', 'webp']);
const MIN_SIDE = 300;
const MAX_SIDE = 6000;
const MIN_ASPECT = 0.4;
const MAX_ASPECT = 2.5;
/**
 * The first bytes of an image, all its dimensions are read from (image-size reads files through the same window).
 * The rest is counted, not kept: the video worker checks images in up to VIDEO_WORKER_CONCURRENCY tasks at once, and
 * keeping whole 30 MB bodies took 30 MB per task (a review finding).
 */
const HEAD_BYTES = 512 * 1024;

const REFERENCE_IMAGES = { name: 'reference-images', timeoutMs: 30_000, maxBytes: MAX_IMAGE_BYTES, maxRedirects: 3 };

/** An image's first HEAD_BYTES and its whole size. */
type ImageHead = { head: Buffer; bytes: number };

function dataUrlHead(url: string): ImageHead {
  const payload = url.slice(url.indexOf(',') + 1);
  // Four base64 characters are three bytes: a prefix of whole quads decodes to the image's first bytes.
  return { head: Buffer.from(payload.slice(0, Math.ceil(HEAD_BYTES / 3) * 4), 'base64'), bytes: base64Bytes(payload) };
}

/** Why a download failed, said for the task's error. */
const downloadFailure = (err: unknown) =>
  new Error(
    isOutboundRequestError(err) && err.reason === 'too-large'
      ? 'it is larger than 30 MB'
      : `the image URL is unreachable (${isOutboundRequestError(err) ? err.message : 'network error'})`,
  );

async function downloadedHead(client: OutboundClient, url: string): Promise<ImageHead> {
  const reply = await client.stream(url).catch((err: unknown) => Promise.reject(downloadFailure(err)));
  if (reply.status !== 200) {
    reply.body.destroy();
    throw new Error(`the image URL is unreachable (HTTP ${reply.status})`);
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of reply.body as AsyncIterable<Buffer>) {
      if (bytes < HEAD_BYTES) chunks.push(chunk.subarray(0, HEAD_BYTES - bytes));
      bytes += chunk.length;
    }
  } catch (err) {
    throw downloadFailure(err);
  }
  return { head: Buffer.concat(chunks), bytes };
}

const imageHead = (client: OutboundClient, url: string) =>
  url.startsWith('data:') ? Promise.resolve(dataUrlHead(url)) : downloadedHead(client, url);

/** Why the image is not acceptable, or null. */
export function imageProblem({ head, bytes }: ImageHead): string | null {
  if (bytes > MAX_IMAGE_BYTES) return 'it is larger than 30 MB';
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(head);
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
      problem = imageProblem(await imageHead(client, url));
    } catch (err) {
      problem = (err as Error).message;
    }
    if (problem) return `Reference image ${i + 1} was refused: ${problem}.`;
  }
  return null;
}
