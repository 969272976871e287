// Redis keys that one Lua step touches together share a hash tag, so every step runs on one Redis Cluster slot:
// an organization's wallet mirror, holds, ledger stream and its projects' quota counters under `{o:<orgId>}`, the
// telemetry intake under `{tel}`. Braces of the configured prefix are dropped here (BullMQ wants `{ockhub}` on a
// cluster, and a second tag before ours would pin every organization to that one slot).
export const untaggedPrefix = (prefix: string) => prefix.replace(/[{}]/g, '');

/** `<prefix>:{o:<orgId>}`: the base of every key of one organization. */
export const organizationKeyBase = (prefix: string, organizationId: string) =>
  `${untaggedPrefix(prefix)}:{o:${organizationId}}`;

/** `<prefix>:{tel}`: the base of the telemetry intake keys. */
export const telemetryKeyBase = (prefix: string) => `${untaggedPrefix(prefix)}:{tel}`;
