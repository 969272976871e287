// Settings of one simulated provider instance, with the defaults the docs promise (docs/simulated-provider.md).

export type SimulatorOptions = {
  /** TCP port; 0 picks a free one. */
  port?: number;
  /** Address to bind; loopback only by default. */
  host?: string;
  /** How long a video task takes from creation to its final state. */
  videoDurationMs?: number;
  /** Pause between two SSE events of a message stream. */
  chunkDelayMs?: number;
  /** Pause between two SSE events when the prompt holds `[slow]`. */
  slowChunkDelayMs?: number;
  /** When set, every request must carry exactly this key; otherwise any non-empty key is accepted. */
  apiKey?: string;
  /** How many recent requests the inspection endpoint keeps. */
  requestLogSize?: number;
};

export type ResolvedOptions = Required<Omit<SimulatorOptions, 'apiKey'>> & { apiKey: string | undefined };

export const defaultOptions = {
  port: 0,
  host: '127.0.0.1',
  videoDurationMs: 3000,
  chunkDelayMs: 10,
  slowChunkDelayMs: 200,
  requestLogSize: 200,
} as const;

export function resolveOptions(options: SimulatorOptions): ResolvedOptions {
  return {
    port: options.port ?? defaultOptions.port,
    host: options.host ?? defaultOptions.host,
    videoDurationMs: options.videoDurationMs ?? defaultOptions.videoDurationMs,
    chunkDelayMs: options.chunkDelayMs ?? defaultOptions.chunkDelayMs,
    slowChunkDelayMs: options.slowChunkDelayMs ?? defaultOptions.slowChunkDelayMs,
    requestLogSize: options.requestLogSize ?? defaultOptions.requestLogSize,
    apiKey: options.apiKey || undefined,
  };
}
