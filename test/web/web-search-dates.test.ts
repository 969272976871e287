// /v1/web/search's dates are calendar days in UTC: a date-time without an offset is read as UTC, so the day a
// provider is asked for does not depend on the time zone the API process runs in (it was read as local time).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { repoRoot } from '../support/harness.js';

const run = promisify(execFile);

/** The day `utcDay` gives in an API process running in time zone `zone`. */
async function dayIn(zone: string, value: string): Promise<string> {
  const script = `import('./api/routes/gateway/web.schemas.ts').then((m) => process.stdout.write(m.utcDay(${JSON.stringify(value)})))`;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', TZ: zone },
  });
  return stdout;
}

it.each([
  ['UTC', '2024-03-01'],
  ['Pacific/Kiritimati', '2024-03-01'], // UTC+14: as local time, 05:00 was the day before in UTC
  ['Pacific/Pago_Pago', '2024-03-01'], // UTC-11
])('in time zone %s, 2024-03-01T05:00:00 is the day %s', async (zone, day) => {
  expect(await dayIn(zone, '2024-03-01T05:00:00')).toBe(day);
  expect(await dayIn(zone, '2024-03-01T05:00:00+14:00')).toBe('2024-02-29');
});
