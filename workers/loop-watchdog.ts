// The main loop seen from outside: a thread that the main loop pings through shared memory. When the pings stop for
// WORKER_LOOP_STALL_EXIT_MS (a loop blocked by CPU work), or a shutdown runs past its deadline, the thread kills the
// process so its supervisor restarts it and BullMQ's stalled-job check hands its jobs to a live worker.
//
// From a worker thread, process.exit() ends only that thread, process.abort() is refused ("not supported in
// workers"), and a SIGTERM to the process waits for the very loop that is blocked (its handler is JavaScript).
// SIGKILL is what works (exit status 137); docs/operations.md.
import { Worker } from 'node:worker_threads';
import type { Logger } from '../shared/logging/logger.js';

export type LoopWatchdog = {
  /** From now on the process must be gone within `ms`; past it (and a 250 ms grace for a clean exit), SIGKILL. */
  shutdownWithin(ms: number): void;
  stop(): Promise<void>;
};

// Plain JavaScript (an eval'd thread needs no loader). It keeps its own clock: only whether the counter moved matters.
const threadSource = `
const { workerData, parentPort } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const beats = new Int32Array(workerData.beats);
let lastBeat = Atomics.load(beats, 0);
let lastBeatAt = performance.now();
const kill = (msg, fields) => {
  writeSync(1, JSON.stringify({ level: 60, time: Date.now(), pid: process.pid, ...workerData.bindings, ...fields, msg }) + '\\n');
  process.kill(process.pid, 'SIGKILL');
};
setInterval(() => {
  const now = performance.now();
  const beat = Atomics.load(beats, 0);
  if (beat !== lastBeat) { lastBeat = beat; lastBeatAt = now; }
  const stalledMs = Math.round(now - lastBeatAt);
  if (stalledMs >= workerData.stallExitMs) kill('main loop stalled: no turn of the event loop for the whole limit; killing the process for a restart', { stalledMs, limitMs: workerData.stallExitMs });
}, workerData.checkEveryMs);
let deadline;
parentPort.on('message', (m) => {
  deadline ??= setTimeout(() => kill('shutdown deadline passed and the process is still here; killing it', { deadlineMs: m.shutdownWithinMs }), m.shutdownWithinMs + 250);
});
`;

export function watchMainLoop(options: { stallExitMs: number; logger: Logger }): LoopWatchdog {
  const beats = new Int32Array(new SharedArrayBuffer(4));
  const everyMs = Math.max(20, Math.min(1_000, Math.floor(options.stallExitMs / 5)));
  const thread = new Worker(threadSource, {
    eval: true,
    workerData: {
      beats: beats.buffer,
      stallExitMs: options.stallExitMs,
      checkEveryMs: everyMs,
      bindings: options.logger.bindings(),
    },
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
  });
  thread.unref();
  thread.on('error', (err) => options.logger.error({ err: err.message }, 'the main-loop watchdog thread failed'));
  const heartbeat = setInterval(() => Atomics.add(beats, 0, 1), everyMs);
  heartbeat.unref();
  return {
    shutdownWithin: (ms) => thread.postMessage({ shutdownWithinMs: ms }),
    async stop() {
      clearInterval(heartbeat);
      await thread.terminate();
    },
  };
}
