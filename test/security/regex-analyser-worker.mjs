// A worker thread of the regex sweep (test/security/regex-analyser.ts): judges each pattern it is sent with recheck's
// pure JavaScript backend (no Java, no native binary), and answers with the verdict. Plain JavaScript: worker threads
// run outside jest's module system.
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';

// recheck reads its backend from the environment at each check; `pure` runs the analysis in this thread.
process.env.RECHECK_BACKEND = 'pure';
const { check } = createRequire(import.meta.url)('recheck');

// No time limits inside the analysis: its verdict then depends only on the pattern, the seed and these counts, not
// on how busy the machine is. The overall timeout only stops an analysis that would never end (reported, not passed).
const deterministic = {
  timeout: 120_000,
  attackTimeout: null,
  incubationTimeout: null,
  seedingTimeout: null,
  randomSeed: 0,
};

parentPort.on('message', async ({ id, source, flags }) => {
  // The automaton checker decides from the pattern's automaton (exact, no sampling); patterns it does not support
  // (look-around, back-references) go to the fuzzing checker, with its fixed seed.
  let verdict = await check(source, flags, { ...deterministic, checker: 'automaton' });
  if (verdict.status === 'unknown' && verdict.error?.kind === 'unsupported') {
    verdict = await check(source, flags, { ...deterministic, checker: 'fuzz' });
  }
  parentPort.postMessage({
    id,
    status: verdict.status,
    checker: verdict.checker,
    complexity: verdict.complexity?.type,
    attack: verdict.attack?.pattern,
    error: verdict.error
      ? `${verdict.error.kind}${verdict.error.message ? `: ${verdict.error.message}` : ''}`
      : undefined,
  });
});
