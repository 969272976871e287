// Reads the environment once and returns a validated, typed configuration; the only reader of process.env.
import { type Env, envSchema } from './schema.js';

export type Config = Env & { publicBaseUrl: string };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const isSecret = (name: string) =>
  /PASSWORD|SECRET|_KEY$|TOKEN|_URL$/.test(name) && !/^(PUBLIC_BASE|GITHUB_API)_URL$/.test(name);

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const relevant = Object.fromEntries(
    Object.keys(envSchema.shape).flatMap((k) => {
      const v = source[k];
      return v === undefined || v === '' ? [] : [[k, v]];
    }),
  );
  const parsed = envSchema.safeParse(relevant);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => {
        const name = String(i.path[0] ?? 'environment');
        const shown = name in relevant && !isSecret(name) ? ` (got ${JSON.stringify(relevant[name])})` : '';
        return `${name}: ${i.message}${shown}`;
      }),
    );
  }
  const env = parsed.data;
  return { ...env, publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '') };
}

/** Entry points call this: a bad setting stops the process with a message naming the variable. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
}

/** Environment handed to child processes (development supervisor, tests); kept here so process.env stays in one module. */
export function inheritedEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...overrides };
}
