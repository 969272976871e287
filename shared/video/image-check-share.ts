// Reference image checks running in this worker process, counted per organization. A check reads every image URL
// of a task in its worker slot, each for up to 30 s, and a refused image costs the caller nothing: without a share,
// one organization's tasks naming slow or silent image hosts held every slot of the worker that serves all
// organizations' videos (a review finding, docs/video.md "Reference images").
import { TenantCounter } from '../concurrency/tenant-counter.js';

const running = new TenantCounter();

/** Takes one of the organization's places; undefined when it has `limit` checks running. Call the result once, to leave. */
export function enterImageCheck(organizationId: string, limit: number): (() => void) | undefined {
  return running.enter(organizationId, limit);
}
