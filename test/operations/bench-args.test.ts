// The benchmark commands README.md names, as a new user first runs them: `--help` prints each one's usage and what
// it measures and exits 0 (it used to start the benchmark with NaN figures until it crashed midway), and a bad
// argument stops it at once with exit code 2, before it makes a scratch database or starts a process.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inheritedEnv } from '../../shared/config/index.js';
import { repoRoot } from '../support/harness.js';

type Ran = { code: number; stdout: string; stderr: string };

/** Each test starts tsx (which compiles the script) up to four times: seconds each on a quiet machine, but 30–45 s
 * for the whole test on a loaded one (load average 12, two helpers' suites beside), past jest's 60 s default. */
const SPAWNS_BUDGET_MS = 240_000;

/** Runs `tsx <args>` in the repository the way README says, without jest's NODE_OPTIONS. */
function tsx(args: string[]): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      path.join(repoRoot, 'node_modules', '.bin', 'tsx'),
      args,
      { cwd: repoRoot, env: inheritedEnv({ NODE_OPTIONS: '' }) },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
    );
  });
}

/** README's "Other commands" rows `npx tsx scripts/bench/<file>.ts [a] [b]`: the file and how many arguments. */
function readmeBenchmarks(): { file: string; argCount: number }[] {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  return [...readme.matchAll(/^\| `npx tsx (scripts\/bench\/[\w-]+\.ts)((?: \[[^\]]+\])*)`/gm)].map((m) => ({
    file: m[1] as string,
    argCount: (m[2]?.match(/\[/g) ?? []).length,
  }));
}

describe('the benchmarks README names answer --help and refuse bad arguments', () => {
  const benchmarks = readmeBenchmarks();

  it('finds the benchmark rows of README', () => {
    expect(benchmarks.map((b) => b.file)).toContain('scripts/bench/catalog-list.ts');
    expect(benchmarks.length).toBeGreaterThanOrEqual(5);
  });

  it.each(benchmarks)(
    '$file --help prints its usage, with as many arguments as README shows, and exits 0',
    async ({ file, argCount }) => {
      const ran = await tsx([file, '--help']);
      expect([ran.code, ran.stderr]).toEqual([0, '']);
      const usage = ran.stdout.split('\n')[0] ?? '';
      expect(usage).toMatch(new RegExp(`^usage: npx tsx ${file.replace(/\./g, '\\.')}( \\[[\\w-]+=[\\d.]+\\])*$`));
      expect((usage.match(/\[/g) ?? []).length).toBe(argCount);
      expect(ran.stdout.split('\n').length).toBeGreaterThan(3);
    },
    SPAWNS_BUDGET_MS,
  );

  it(
    'stops with exit code 2 naming an argument that is not a positive number, or one too many',
    async () => {
      const notANumber = await tsx(['scripts/bench/catalog-list.ts', '5', 'many']);
      expect(notANumber).toEqual({
        code: 2,
        stdout: '',
        stderr: expect.stringMatching(/^connections must be a positive integer \(got "many"\)\nusage: /),
      });
      const tooMany = await tsx(['scripts/bench/large-bodies.ts', '4', '8']);
      expect(tooMany).toEqual({
        code: 2,
        stdout: '',
        stderr: expect.stringMatching(/^takes at most 1 argument\(s\), got 2\nusage: /),
      });
    },
    SPAWNS_BUDGET_MS,
  );

  // 0.5 workers left telemetry.ts waiting forever; a duration may still be a fraction.
  it(
    'stops with exit code 2 on a fraction of a count',
    async () => {
      const half = await tsx(['scripts/bench/telemetry.ts', '4000', '3', '20000', '0.5']);
      expect(half).toEqual({
        code: 2,
        stdout: '',
        stderr: expect.stringMatching(/^workers must be a positive integer \(got "0\.5"\)\nusage: /),
      });
    },
    SPAWNS_BUDGET_MS,
  );

  // gateway-ab.ts threw a stack trace for --help and took any rounds, n or conc.
  it(
    'gateway-ab.ts answers --help and refuses missing checkouts or a fraction of a count',
    async () => {
      const help = await tsx(['scripts/bench/gateway-ab.ts', '--help']);
      expect([help.code, help.stderr]).toEqual([0, '']);
      expect(help.stdout).toMatch(
        /^usage: npx tsx scripts\/bench\/gateway-ab\.ts <checkout-A> <checkout-B> \[rounds=20\] \[n=300\] \[conc=16\]\n\nTwo checkouts/,
      );
      const none = await tsx(['scripts/bench/gateway-ab.ts']);
      expect([none.code, none.stdout]).toEqual([2, '']);
      expect(none.stderr).toMatch(/^checkout-A is required\ncheckout-B is required\nusage: /);
      const fraction = await tsx(['scripts/bench/gateway-ab.ts', '.', '.', '2.5']);
      expect(fraction).toEqual({
        code: 2,
        stdout: '',
        stderr: expect.stringMatching(/^rounds must be a positive integer \(got "2\.5"\)\nusage: /),
      });
    },
    SPAWNS_BUDGET_MS,
  );

  it(
    'npm run bench -- --help lists the benchmarks, and a name that matches none exits 2',
    async () => {
      const help = await tsx(['scripts/bench/run-all.ts', '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^usage: npm run bench .*\n\nbenchmarks: .*catalog-list\.ts/);
      const none = await tsx(['scripts/bench/run-all.ts', 'no-such-bench']);
      expect([none.code, none.stdout]).toEqual([2, '']);
      expect(none.stderr).toMatch(/^no benchmark's file name contains no-such-bench; the benchmarks: /);
    },
    SPAWNS_BUDGET_MS,
  );

  it(
    'npm run soak -- --help prints its flags, and an unknown flag exits 2',
    async () => {
      const help = await tsx(['scripts/bench/soak.ts', '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^usage: npm run soak -- \[flags\]\n\n/);
      expect(help.stdout).toContain('Flags: --minutes 10 --interval 30');
      const unknown = await tsx(['scripts/bench/soak.ts', '--nope']);
      expect([unknown.code, unknown.stdout]).toEqual([2, '']);
      expect(unknown.stderr).toMatch(/^Unknown option '--nope'/);
    },
    SPAWNS_BUDGET_MS,
  );
});
