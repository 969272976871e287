// The checks of a video create that cost nothing (count, URL scheme, data URL type and size, model, resolution,
// parameter commands in the prompt), run before anything is charged, and the normalized request the worker submits
// upstream.

import { createHash } from 'node:crypto';
import type { InlineImageDescriptor, VideoTaskImage, VideoTaskRequest } from '../db/schema/index.js';
import { badRequest } from '../errors/app-error.js';
import type { ModelEntry } from '../gateway/model-registry.js';

export const MAX_REFERENCE_IMAGES = 9;
export const MAX_IMAGE_BYTES = 30 * 1024 * 1024;
export const DEFAULT_SECONDS = 5;
/** An http(s) image URL is kept in the task's row: long enough for signed URLs, too short to store data in. */
export const MAX_IMAGE_URL_CHARS = 8_192;
/** The prompt with every text content item joined, as stored with the task (each part alone allows as much). */
export const MAX_PROMPT_CHARS = 20_000;

const invalid = (message: string) => badRequest('Video.InvalidRequest', message);

const DATA_URL = /^data:([^;,]*)(;[^,]*)?,/i;
const IMAGE_DATA_URL = /^data:image\/(jpeg|png|webp);base64,/i;

/**
 * A parameter command of Seedance (BytePlus/Volcengine), which reads them from the prompt text and lets them win over
 * the request's fields: `--rs 1080p --dur 10 --frames 289 --wm false --seed 1 --ratio 16:9 --fps 24 --cf true`, and the
 * long forms. Sent on, `--dur 12` in a prompt charged for 5 s made 12 s, `--rs` a resolution the registry does not
 * offer (security review 2026-11-27, second round). A command is `--name` anywhere (Chinese prompts put it right
 * after the text, `一只猫--dur 12`, and punctuation or a zero-width space may stand before it), then whitespace and a
 * value; any case. `a -- b`, `pre--fix`, `--durable` or a closing `--seed` stay ordinary text.
 */
const SEEDANCE_COMMAND =
  /--(resolution|rs|ratio|rt|duration|dur|frames|framespersecond|fps|watermark|wm|seed|camerafixed|cf)\s+\S/i;

/** The first Seedance parameter command in a prompt (`--dur`), or undefined. */
export function seedancePromptCommand(prompt: string): string | undefined {
  const found = SEEDANCE_COMMAND.exec(prompt);
  return found ? `--${found[1]}` : undefined;
}

/** 400 when the prompt holds a Seedance parameter command (see `seedancePromptCommand`). */
export function checkNoPromptCommands(prompt: string): void {
  const command = seedancePromptCommand(prompt);
  if (command) {
    throw invalid(
      `The prompt holds the parameter command ${command}: set resolution, duration, ratio, seed and the others as ` +
        'request fields, not in the prompt.',
    );
  }
}

export type VideoCreateInput = {
  model: string;
  prompt?: string;
  duration?: number;
  seconds?: number;
  ratio?: string;
  resolution?: string;
  size?: string;
  generate_audio?: boolean;
  content?: ({ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string }; role: string })[];
  input_reference?: string | { image_url: string };
};

/** Decoded byte length of a base64 payload, without decoding it. */
export function base64Bytes(payload: string): number {
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  return Math.floor((payload.length * 3) / 4) - padding;
}

/** 400 unless the URL is http(s) or a JPEG/PNG/WebP base64 data URL of at most 30 MB. */
export function checkImageUrl(url: string, where: string): void {
  if (url.startsWith('data:')) {
    const header = DATA_URL.exec(url.slice(0, 200));
    if (!IMAGE_DATA_URL.test(url.slice(0, 40))) {
      const type = header?.[1] || 'unknown';
      throw invalid(`${where}: a data URL must be data:image/(jpeg|png|webp);base64,... (got ${type}).`);
    }
    const bytes = base64Bytes(url.slice(url.indexOf(',') + 1));
    if (bytes > MAX_IMAGE_BYTES) {
      throw invalid(`${where}: the image is ${bytes} bytes; at most ${MAX_IMAGE_BYTES} bytes (30 MB) are accepted.`);
    }
    return;
  }
  if (url.length > MAX_IMAGE_URL_CHARS) {
    throw invalid(`${where}: an image URL may have at most ${MAX_IMAGE_URL_CHARS} characters (got ${url.length}).`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid(`${where}: not a valid URL.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalid(`${where}: an image URL must be http(s) or a data:image URL (got ${parsed.protocol}).`);
  }
}

/**
 * `request` is what the task's row keeps (an inline image only as its descriptor); `inlineImages` are the data URLs
 * of the inline images in order, held only until no submission needs them.
 */
export type NormalizedVideoRequest = { seconds: number; request: VideoTaskRequest; inlineImages: string[] };

/** What stays of a data URL once its bytes are dropped: media type, decoded size and SHA-256 of the image. */
export function inlineImageDescriptor(dataUrl: string): InlineImageDescriptor {
  const comma = dataUrl.indexOf(',');
  const decoded = Buffer.from(dataUrl.slice(comma + 1), 'base64');
  return {
    mediaType: dataUrl.slice('data:'.length, dataUrl.indexOf(';')).toLowerCase(),
    bytes: decoded.length,
    sha256: createHash('sha256').update(decoded).digest('hex'),
  };
}

/** Splits the images into what the row keeps and the data URLs held apart until submission. */
function storedImages(images: { url: string; role: string }[]) {
  const inlineImages: string[] = [];
  const stored = images.map(({ url, role }): VideoTaskImage => {
    if (!url.startsWith('data:')) return { url, role };
    inlineImages.push(url);
    return { role, inline: inlineImageDescriptor(url) };
  });
  return { stored, inlineImages };
}

/**
 * Both request forms as one task request; throws 400 on the first problem. `providerKind` is the video upstream's
 * (UPSTREAM_VIDEO_KIND): prompt commands are refused for `seedance`, and for every kind when it is not given.
 */
export function normalizeVideoRequest(
  input: VideoCreateInput,
  model: ModelEntry,
  options: { providerKind?: 'seedance' | 'openai' } = {},
): NormalizedVideoRequest {
  const texts = (input.content ?? []).flatMap((item) => (item.type === 'text' ? [item.text] : []));
  const images = (input.content ?? []).flatMap((item) =>
    item.type === 'image_url' ? [{ url: item.image_url.url, role: item.role }] : [],
  );
  if (input.input_reference !== undefined) {
    const url = typeof input.input_reference === 'string' ? input.input_reference : input.input_reference.image_url;
    images.push({ url, role: 'reference_image' });
  }
  if (images.length > MAX_REFERENCE_IMAGES) {
    throw invalid(`At most ${MAX_REFERENCE_IMAGES} reference images are accepted; the request has ${images.length}.`);
  }
  images.forEach((image, i) => {
    checkImageUrl(image.url, `image ${i + 1}`);
  });
  const prompt = [input.prompt, ...texts].filter((t): t is string => Boolean(t?.trim())).join('\n');
  if (!prompt && images.length === 0) throw invalid('A prompt (or a text content item) or an image is required.');
  if (prompt.length > MAX_PROMPT_CHARS) {
    throw invalid(
      `The prompt and text items together may have at most ${MAX_PROMPT_CHARS} characters (got ${prompt.length}).`,
    );
  }
  if (options.providerKind !== 'openai') checkNoPromptCommands(prompt);

  const sizeResolution = input.size ? resolutionOfSize(input.size) : undefined;
  // A provider reads one of the two (Seedance `resolution`, OpenAI-style `size`): when they disagree, the one checked
  // against the registry might not be the one generated (720p checked, 1080p made at 720p's price).
  if (input.resolution && sizeResolution && input.resolution !== sizeResolution) {
    throw invalid(
      `size ${input.size} is ${sizeResolution}, but resolution says ${input.resolution}; send one or agree.`,
    );
  }
  const resolution = input.resolution ?? sizeResolution;
  if (resolution && model.resolutions && !model.resolutions.includes(resolution)) {
    throw badRequest(
      'Video.UnsupportedResolution',
      `Model ${model.id} does not support resolution ${resolution} (supported: ${model.resolutions.join(', ')}).`,
    );
  }
  const seconds = input.duration ?? input.seconds ?? DEFAULT_SECONDS;
  const { stored, inlineImages } = storedImages(images);
  return {
    seconds,
    inlineImages,
    request: {
      prompt,
      images: stored,
      ...(input.ratio ? { ratio: input.ratio } : input.size ? { ratio: ratioOfSize(input.size) } : {}),
      ...(resolution ? { resolution } : {}),
      ...(input.size ? { size: input.size } : {}),
      ...(input.generate_audio === undefined ? {} : { generateAudio: input.generate_audio }),
    },
  };
}

const sides = (size: string) => size.split('x').map(Number) as [number, number];

/** `1280x720` → `720p` (the short side). */
export const resolutionOfSize = (size: string) => `${Math.min(...sides(size))}p`;

function ratioOfSize(size: string): string {
  const [w, h] = sides(size);
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const d = gcd(w, h);
  return `${w / d}:${h / d}`;
}
