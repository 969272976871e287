// Reference image checks running in this worker process, counted per organization. A check reads every image URL
// of a task in its worker slot, each for up to 30 s, and a refused image costs the caller nothing: without a share,
// one organization's tasks naming slow or silent image hosts held every slot of the worker that serves all
// organizations' videos (a review finding, docs/video.md "Reference images").
const running = new Map<string, number>();

/** Takes one of the organization's places; undefined when it has `limit` checks running. Call the result once, to leave. */
export function enterImageCheck(organizationId: string, limit: number): (() => void) | undefined {
  const now = running.get(organizationId) ?? 0;
  if (now >= limit) return undefined;
  running.set(organizationId, now + 1);
  let left = false;
  return () => {
    if (left) return;
    left = true;
    const after = (running.get(organizationId) ?? 1) - 1;
    if (after > 0) running.set(organizationId, after);
    else running.delete(organizationId);
  };
}
