// The video upstream the configuration names (UPSTREAM_VIDEO_KIND).
import type { Config } from '../../config/index.js';
import { openAiVideoProvider } from './openai-videos.js';
import { seedanceVideoProvider } from './seedance-tasks.js';
import type { VideoProvider } from './video-provider.js';

export {
  UpstreamVideoError,
  type UpstreamVideoRequest,
  type UpstreamVideoState,
  type VideoProvider,
} from './video-provider.js';

export function videoProviderFor(config: Config): VideoProvider {
  return config.UPSTREAM_VIDEO_KIND === 'openai' ? openAiVideoProvider(config) : seedanceVideoProvider(config);
}
