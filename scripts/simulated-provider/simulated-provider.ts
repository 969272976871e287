// Builds and starts one simulated upstream provider (Anthropic Messages, Seedance and OpenAI videos, Tavily and
// Brave search) on a loopback port; usable in-process by tests or as a child process through server.ts.
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { anthropicRouter } from './anthropic/messages-routes.js';
import { inspectionRouter } from './inspection-routes.js';
import { notFound } from './not-found.js';
import { type ResolvedOptions, resolveOptions, type SimulatorOptions } from './options.js';
import { braveRouter } from './search/brave-routes.js';
import { tavilyRouter } from './search/tavily-routes.js';
import { SimulatorState } from './simulator-state.js';
import { openAiVideoRouter } from './video/openai-video-routes.js';
import { seedanceRouter } from './video/seedance-routes.js';
import { SAMPLE_MP4_URL, videoFilesRouter } from './video/video-files-routes.js';
import { VideoTaskStore } from './video/video-tasks.js';

export type { SimulatorOptions } from './options.js';

export type SimulatedProvider = {
  /** Origin without a trailing slash, e.g. http://127.0.0.1:40123 (the Anthropic SDK's baseURL). */
  url: string;
  port: number;
  options: ResolvedOptions;
  state: SimulatorState;
  close(): Promise<void>;
};

export async function startSimulatedProvider(input: SimulatorOptions = {}): Promise<SimulatedProvider> {
  const options = resolveOptions(input);
  const state = new SimulatorState(options.requestLogSize);
  const videos = new VideoTaskStore(options.videoDurationMs);
  const mp4 = readFileSync(SAMPLE_MP4_URL);
  let origin = '';
  const videoUrl = (id: string) => `${origin}/files/videos/${id}.mp4`;

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(state.recorder);
  app.use(inspectionRouter(state));
  app.use(anthropicRouter(options, state));
  app.use(openAiVideoRouter(options, state, videos, mp4));
  app.use(seedanceRouter(options, state, videos, videoUrl));
  app.use(videoFilesRouter(videos, mp4));
  app.use(tavilyRouter(options, state));
  app.use(braveRouter(options, state));
  app.use(notFound);

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(options.port, options.host, (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://${options.host}:${port}`;
  return {
    url: origin,
    port,
    options,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
