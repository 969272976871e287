// Runs in a worker thread: the CPU-heavy part of a skill bundle review (inflating, parsing), off the thread that
// renews BullMQ's job locks.
import { parentPort, workerData } from 'node:worker_threads';
import { reviewSkillBundle } from '../../shared/skills/skill-bundle-review.js';

const zip = Buffer.from(workerData.zip as Uint8Array);
parentPort?.postMessage(await reviewSkillBundle(zip));
