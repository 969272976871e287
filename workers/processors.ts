// Every queue's worker module, loaded when a process runs that queue. A Record over every queue name, so a queue
// the registry declares without a worker does not compile.
import type { QueueName } from '../shared/queues/registry.js';
import type { QueueWorker } from './processor.js';

type Loader<Q extends QueueName> = () => Promise<{ default: QueueWorker<Q> }>;

export const processors: { [Q in QueueName]: Loader<Q> } = {
  alerts: () => import('./alerts/processor.js'),
  ledger: () => import('./ledger/processor.js'),
  maintenance: () => import('./maintenance/processor.js'),
  quota: () => import('./quota/processor.js'),
  'skill-bundle': () => import('./skill-bundle/processor.js'),
  telemetry: () => import('./telemetry/processor.js'),
  video: () => import('./video/processor.js'),
  'video-rehost': () => import('./video-rehost/processor.js'),
  'web-fetch': () => import('./web-fetch/processor.js'),
};

export async function loadQueueWorker(queue: QueueName): Promise<QueueWorker> {
  return (await (processors[queue] as Loader<QueueName>)()).default;
}
