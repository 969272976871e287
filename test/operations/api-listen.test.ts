// The API on a port another process holds: it says so and exits, instead of printing "API listening" and staying
// up serving nothing (Express 5 hands the listen error to app.listen's callback), so `npm start` never reports a
// ready service that is really another program answering on that port.
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
