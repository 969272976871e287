// Reads a Seedance (Volcengine Ark) task request: the prompt and `--flag value` text commands of the text item,
// top-level parameters (which win over flags), and the image items; rejects what Ark rejects, in Ark's error shape.
import { ProviderError } from '../provider-error.js';

export type SeedanceImage = { url: string; role?: string };

export type SeedanceParams = {
  prompt: string;
  images: SeedanceImage[];
  resolution: '480p' | '720p' | '1080p';
  ratio: string;
  duration: number;
  framespersecond: number;
  seed: number;
  camerafixed: boolean;
  watermark: boolean;
  generate_audio?: boolean;
};

const RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', 'adaptive', 'keep_ratio'];
const RESOLUTIONS = ['480p', '720p', '1080p'];
const ROLES = ['first_frame', 'last_frame', 'reference_image'];
const FLAG_ALIASES: Record<string, string> = {
  rs: 'resolution',
  rt: 'ratio',
  dur: 'duration',
  fps: 'framespersecond',
  cf: 'camerafixed',
  wm: 'watermark',
};
export const MAX_IMAGES = 9;

export function arkError(status: number, code: string, message: string, param = '') {
  const type = {
    400: 'BadRequest',
    401: 'Unauthorized',
    404: 'NotFound',
    429: 'TooManyRequests',
    500: 'InternalServerError',
  }[status];
  return { error: { code, message, param, type: type ?? 'InternalServerError' } };
}

export function invalidParameter(param: string, message: string): ProviderError {
  return new ProviderError(
    400,
    arkError(
      400,
      'InvalidParameter',
      `The parameter \`${param}\` specified in the request is not valid: ${message}`,
      param,
    ),
  );
}

type ContentItem = { type?: unknown; text?: unknown; image_url?: { url?: unknown }; role?: unknown };

function parseFlags(text: string): { prompt: string; flags: Record<string, string> } {
  const flags: Record<string, string> = {};
  const prompt = text
    .replace(/(^|\s)--([a-z_]+)\s+(\S+)/gi, (_m, _lead, name: string, value: string) => {
      const key = name.toLowerCase();
      flags[FLAG_ALIASES[key] ?? key] = value;
      return '';
    })
    .trim();
  return { prompt, flags };
}

function asBoolean(param: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw invalidParameter(param, 'expected true or false');
}

function asInteger(param: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    throw invalidParameter(param, `expected an integer from ${min} to ${max}`);
  }
  return n;
}

export function parseSeedanceRequest(body: Record<string, unknown>, seedFallback: number) {
  if (typeof body.model !== 'string' || !body.model) throw invalidParameter('model', 'the model is required');
  if (!Array.isArray(body.content) || body.content.length === 0)
    throw invalidParameter('content', 'at least one item is required');
  const items = body.content as ContentItem[];
  const texts: string[] = [];
  const images: SeedanceImage[] = [];
  items.forEach((item, i) => {
    if (item?.type === 'text' && typeof item.text === 'string') texts.push(item.text);
    else if (item?.type === 'image_url') {
      const url = item.image_url?.url;
      if (typeof url !== 'string' || !/^(https?:\/\/|data:image\/[a-z]+;base64,)/i.test(url)) {
        throw invalidParameter(
          `content[${i}].image_url.url`,
          'expected an http(s) URL or a data:image/<format>;base64 URL',
        );
      }
      if (item.role !== undefined && !ROLES.includes(String(item.role)))
        throw invalidParameter(`content[${i}].role`, `unknown role ${String(item.role)}`);
      images.push({ url, role: item.role === undefined ? undefined : String(item.role) });
    } else throw invalidParameter(`content[${i}].type`, 'expected text or image_url');
  });
  if (images.length > MAX_IMAGES) throw invalidParameter('content', `at most ${MAX_IMAGES} images are allowed`);
  const { prompt, flags } = parseFlags(texts.join('\n'));
  if (!prompt && images.length === 0) throw invalidParameter('content', 'a text prompt or an image is required');
  const pick = (name: string) => (body[name] !== undefined ? body[name] : flags[name]);

  const ratio = String(pick('ratio') ?? '16:9');
  if (!RATIOS.includes(ratio)) throw invalidParameter('ratio', `expected one of ${RATIOS.join(', ')}`);
  const resolution = String(pick('resolution') ?? '720p');
  if (!RESOLUTIONS.includes(resolution))
    throw invalidParameter('resolution', `expected one of ${RESOLUTIONS.join(', ')}`);
  const fps = asInteger('framespersecond', pick('framespersecond'), 24, 16, 24);
  const frames = pick('frames');
  const duration =
    frames !== undefined
      ? Math.max(1, Math.round(asInteger('frames', frames, 121, 29, 289) / fps))
      : asInteger('duration', pick('duration'), 5, 1, 15);
  const seed = asInteger('seed', pick('seed'), -1, -1, 2 ** 32 - 1);
  const params: SeedanceParams = {
    prompt,
    images,
    resolution: resolution as SeedanceParams['resolution'],
    ratio,
    duration,
    framespersecond: fps,
    seed: seed === -1 ? seedFallback : seed,
    camerafixed: asBoolean('camera_fixed', body.camera_fixed ?? flags.camerafixed, false),
    watermark: asBoolean('watermark', pick('watermark'), false),
    generate_audio:
      body.generate_audio === undefined ? undefined : asBoolean('generate_audio', body.generate_audio, false),
  };
  return { model: body.model, params };
}

/** Ark's video token count: width × height × frames per second × seconds / 1024. */
export function seedanceTokens(params: SeedanceParams): number {
  const short = { '480p': 480, '720p': 720, '1080p': 1080 }[params.resolution];
  const [w, h] = /^\d+:\d+$/.test(params.ratio) ? params.ratio.split(':').map(Number) : [16, 9];
  const [width, height] = w! >= h! ? [Math.round((short * w!) / h!), short] : [short, Math.round((short * h!) / w!)];
  return Math.floor((width * height * params.framespersecond * params.duration) / 1024);
}
