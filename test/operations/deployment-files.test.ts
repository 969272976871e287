// The Dockerfile and docker-compose.yml cannot be built or run on these machines (no container registry), so this
// reads them as an operator's tools would and holds them to the repository: every command they run is a Procfile
// process or a build output, every variable they set is a setting the config knows, the image runs as a non-root
// user with a health check, and the health check script itself answers as documented.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parse } from 'yaml';
import { envSchema } from '../../shared/config/schema.js';
import { repoRoot } from '../support/harness.js';

const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');

/** The built file each Procfile process runs, by process name: `web` → `dist/api/server.js`. */
function procfileScripts(): Map<string, string> {
  const scripts = new Map<string, string>();
  for (const line of read('Procfile').split('\n')) {
    const match = line.match(/^(\w+):.*?\s(dist\/\S+\.js)\b/);
    if (match) scripts.set(match[1] as string, match[2] as string);
  }
  return scripts;
}

/** `dist/scripts/x.js` exists after `npm run build` when `scripts/x.ts` does (tsconfig.build.json's layout). */
function sourceOf(built: string): string {
  return built.replace(/^dist\//, '').replace(/\.js$/, '.ts');
}

type Instruction = { keyword: string; args: string };

function dockerInstructions(): Instruction[] {
  const joined = read('Dockerfile').replace(/\\\n\s*/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

describe('the Dockerfile', () => {
  const instructions = dockerInstructions();
  const stages = instructions.filter((i) => i.keyword === 'FROM');
  const finalStage = instructions.slice(instructions.lastIndexOf(stages.at(-1) as Instruction));

  it('builds in one stage with `npm run build` and runs from a second, on the Node major the project requires', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(instructions.some((i) => i.keyword === 'RUN' && i.args.includes('npm run build'))).toBe(true);
    const required = Number(String(JSON.parse(read('package.json')).engines.node).match(/(\d+)/)?.[1]);
    for (const stage of stages) {
      const major = Number(stage.args.match(/^node:(\d+)/)?.[1]);
      expect(major).toBeGreaterThanOrEqual(required);
    }
    expect(finalStage.some((i) => i.keyword === 'COPY' && i.args.includes('--from=build'))).toBe(true);
  });

  it('runs as a non-root user, with a health check, and starts the Procfile web process by default', () => {
    const user = finalStage.filter((i) => i.keyword === 'USER').at(-1);
    expect(user?.args).toBeDefined();
    expect(['root', '0']).not.toContain(user?.args);
    const health = finalStage.find((i) => i.keyword === 'HEALTHCHECK');
    expect(health?.args).toMatch(/dist\/scripts\/healthcheck\.js/);
    expect(() => read(sourceOf('dist/scripts/healthcheck.js'))).not.toThrow();
    const cmd = JSON.parse(finalStage.filter((i) => i.keyword === 'CMD').at(-1)?.args ?? '[]') as string[];
    expect(cmd.at(-1)).toBe(procfileScripts().get('web'));
  });
});

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<
      string,
      {
        command?: string[];
        environment?: Record<string, unknown>;
        depends_on?: Record<string, { condition: string }>;
        stop_grace_period?: string;
      }
    >;
  };
  const services = compose.services;

  it('holds PostgreSQL, Redis, the release step, one web and one worker', () => {
    expect(Object.keys(services).sort()).toEqual(['postgres', 'redis', 'release', 'web', 'worker']);
  });

  it('runs each ockhub service as the Procfile process of the same name, after the release step', () => {
    const procfile = procfileScripts();
    for (const name of ['release', 'web', 'worker']) {
      expect(services[name]?.command?.at(-1)).toBe(procfile.get(name));
    }
    for (const name of ['web', 'worker']) {
      expect(services[name]?.depends_on?.release?.condition).toBe('service_completed_successfully');
    }
  });

  it('lets web and worker finish their own drains before Docker kills them', () => {
    const seconds = (name: string) => Number(/^(\d+)s$/.exec(services[name]?.stop_grace_period ?? '')?.[1] ?? 0);
    // The API drains for API_SHUTDOWN_MS, then has up to 6 s to settle what it cut (api/server.ts); a worker hands
    // its jobs back within WORKER_SHUTDOWN_MS.
    expect(seconds('web') * 1000).toBeGreaterThan(envSchema.shape.API_SHUTDOWN_MS.parse(undefined) + 6_000);
    expect(seconds('worker') * 1000).toBeGreaterThan(envSchema.shape.WORKER_SHUTDOWN_MS.parse(undefined));
  });

  it('sets only settings the configuration knows', () => {
    const known = new Set(Object.keys(envSchema.shape));
    for (const name of ['release', 'web', 'worker']) {
      const unknown = Object.keys(services[name]?.environment ?? {}).filter((key) => !known.has(key));
      expect({ service: name, unknown }).toEqual({ service: name, unknown: [] });
    }
    expect(services.worker?.environment?.WORKER_METRICS_PORT).toBeDefined();
  });
});

describe('the health check script', () => {
  let server: Server;
  let port: number;
  let status = 200;

  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(req.url === '/health' ? status : 404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  function healthcheck(role: string, env: Record<string, string>): Promise<number | null> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/healthcheck.ts', role], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: 'ignore',
    });
    return new Promise((resolve) => child.once('exit', resolve));
  }

  it('exits 0 when the web process answers /health with 200, and 1 otherwise', async () => {
    status = 200;
    expect(await healthcheck('web', { PORT: String(port) })).toBe(0);
    status = 503;
    expect(await healthcheck('web', { PORT: String(port) })).toBe(1);
  });

  it('asks a worker on WORKER_METRICS_PORT, and fails when that port is unset or nothing listens', async () => {
    status = 200;
    expect(await healthcheck('worker', { WORKER_METRICS_PORT: String(port) })).toBe(0);
    expect(await healthcheck('worker', {})).toBe(1);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freed = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await healthcheck('worker', { WORKER_METRICS_PORT: String(freed) })).toBe(1);
  });
});
