// Names for the members of sliding-window sets: unique across every process of a deployment (a random prefix drawn
// once per process, then a counter), so two events never collapse into one member, without asking the kernel for
// random bytes on every event (a synchronous call that showed in the telemetry intake's CPU profile).
import { randomBytes } from 'node:crypto';

const processPrefix = randomBytes(9).toString('base64url');
let counter = 0;

export const nextWindowMember = (): string => `${processPrefix}${(counter++).toString(36)}`;
