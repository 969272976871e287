// The API on a port another process holds: it says so and exits, instead of printing "API listening" and staying
// up serving nothing (Express 5 hands the listen error to app.listen's callback), so `npm start` never reports a
// ready service that is really another program answering on that port.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startProcess, testEnv } from '../support/harness.js';
import { listeningServer } from '../support/loopback-ports.js';

it('exits with a message naming the port and how to pick another when the port is taken', async () => {
  const { server, port } = await listeningServer();
  try {
    // A start that wrongly succeeds is stopped here, so a failing run leaves no process behind.
    const outcome = await startProcess(testEnv(), {
      script: 'api/server.ts',
      readyLine: /API listening/,
      extraEnv: { PORT: String(port) },
    }).then(
      async (api) => `started: ${await api.stop()}`,
      (err: Error) => err.message,
    );
    expect(outcome).toMatch(
      new RegExp(
        `exited with 1 before ready:[\\s\\S]*The API cannot listen on port ${port}: another process already does` +
          `[\\s\\S]*PORT=${port + 100} npm start`,
      ),
    );
  } finally {
    await new Promise((r) => server.close(r));
  }
});

// `npm start` on a taken port: it used to migrate and seed first (a second checkout following the advice above
// without its own DATABASE_URL had already migrated the first one's tables with its code); now it stops before it
// writes anything. Found by a new user's trial.
it('npm start stops on a taken port before it creates, migrates or seeds any database', async () => {
  const { server, port } = await listeningServer();
  const env = testEnv();
  const database = new URL(env.DATABASE_URL as string);
  const name = `${database.pathname.slice(1)}_taken_${randomBytes(4).toString('hex')}`;
  database.pathname = `/${name}`;
  try {
    const outcome = await startProcess(env, {
      script: 'scripts/dev.ts',
      readyLine: /\[ockhub\] Gateway key /,
      readyWithinMs: 120_000,
      extraEnv: { PORT: String(port), DATABASE_URL: database.toString() },
    }).then(
      async (dev) => `started: ${await dev.stop('SIGTERM')}`,
      (err: Error) => err.message,
    );
    expect(outcome).toMatch(
      new RegExp(
        `exited with 1 before ready:[\\s\\S]*The API cannot listen on port ${port}: another process already does` +
          '[\\s\\S]*DATABASE_URL, REDIS_PREFIX',
      ),
    );
    expect(outcome).not.toMatch(/database migrated/);
    const client = new pg.Client({ connectionString: env.DATABASE_URL as string });
    await client.connect();
    try {
      expect((await client.query('select 1 from pg_database where datname = $1', [name])).rowCount).toBe(0);
    } finally {
      await client.end();
    }
  } finally {
    await new Promise((r) => server.close(r));
  }
}, 180_000);
