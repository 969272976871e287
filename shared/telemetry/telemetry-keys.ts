// Redis keys of the telemetry counters; all under the configured prefix.
export const telemetryKeys = (prefix: string) => ({
  done: (eventId: string) => `${prefix}:tel:done:${eventId}`,
  view: (itemId: string, clientHash: string, day: string) => `${prefix}:tel:v:${itemId}:${clientHash}:${day}`,
  usage: (itemId: string, clientHash: string, day: string) => `${prefix}:tel:u:${itemId}:${clientHash}:${day}`,
  pending: `${prefix}:tel:pending`,
  flushing: `${prefix}:tel:flushing`,
  flushingId: `${prefix}:tel:flushing:id`,
});

/** Fields of the pending hash: `{itemId}|{counter}` and `{itemId}|tool|{toolName}`. */
export const counterField = (itemId: string, counter: string) => `${itemId}|${counter}`;
export const toolField = (itemId: string, toolName: string) => `${itemId}|tool|${toolName}`;
