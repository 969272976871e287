// Which processor runs each queue. A queue without an entry has no worker yet and is refused if named explicitly.
import type { QueueName } from '../shared/queues/registry.js';
import type { ProcessorModule } from './processor.js';

export const processors: Partial<Record<QueueName, () => Promise<ProcessorModule>>> = {
  alerts: () => import('./alerts/processor.js'),
  maintenance: () => import('./maintenance/processor.js'),
  quota: () => import('./quota/processor.js'),
  'skill-bundle': () => import('./skill-bundle/processor.js'),
  telemetry: () => import('./telemetry/processor.js'),
  video: () => import('./video/processor.js'),
  'video-rehost': () => import('./video-rehost/processor.js'),
  'web-fetch': () => import('./web-fetch/processor.js'),
};
