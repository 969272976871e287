// Loaded into each process of a soak (`node --import tsx --import ./scripts/bench/soak/probe.ts ...`): every
// SOAK_PROBE_INTERVAL_MS it writes the process's heap and the event-loop delay of that interval (then resets) to
// SOAK_PROBE_FILE, which the soak reads. A file rather than IPC so the probed process runs exactly as in production.
import { renameSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.SOAK_PROBE_FILE;
if (file) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const write = () => {
    const memory = process.memoryUsage();
    const sample = {
      at: Date.now(),
      heapUsed: memory.heapUsed,
      external: memory.external,
      loopDelayP99Ms: delay.percentile(99) / 1e6,
      loopDelayMaxMs: delay.max / 1e6,
    };
    delay.reset();
    writeFileSync(`${file}.tmp`, JSON.stringify(sample));
    renameSync(`${file}.tmp`, file); // atomic: the reader never sees half a file
  };
  setInterval(write, Number(process.env.SOAK_PROBE_INTERVAL_MS ?? 5000)).unref();
}
