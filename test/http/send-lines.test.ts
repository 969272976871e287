// A long text download (the wallet's CSV export) sent with backpressure: a client that leaves mid-way must end the
// reading, not leave the handler waiting for a 'drain' that never comes (and holding what it read) for ever.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import express from 'express';
import { sendLines } from '../../api/http/send-lines.js';

const LINE = `${'x'.repeat(1023)}\n`;

/** An app whose one route sends `count` lines of 1 KiB; `finished` settles when the lines are no longer read. */
async function serve(count: number) {
  let finished!: (how: { read: number; completed: boolean }) => void;
  const done = new Promise<{ read: number; completed: boolean }>((resolve) => {
    finished = resolve;
  });
  async function* lines() {
    let read = 0;
    let completed = false;
    try {
      for (; read < count; read++) yield LINE;
      completed = true;
    } finally {
      finished({ read, completed });
    }
  }
  const app = express();
  app.get('/lines', async (_req, res) => {
    res.setHeader('content-type', 'text/plain');
    await sendLines(res, lines());
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, done };
}

it('sends every line, in order, and ends the response', async () => {
  const { server, port, done } = await serve(3_000);
  try {
    const res = await fetch(`http://127.0.0.1:${port}/lines`);
    const body = await res.text();
    expect(body.length).toBe(3_000 * LINE.length);
    expect(
      body
        .split('\n')
        .slice(0, -1)
        .every((l) => l === LINE.slice(0, -1)),
    ).toBe(true);
    expect(await done).toEqual({ read: 3_000, completed: true });
  } finally {
    server.close();
  }
});

it('stops reading the lines when a client that read nothing goes away', async () => {
  // 200 MiB: far more than the socket buffers hold, so the sender waits on backpressure when the client leaves.
  const { server, port, done } = await serve(200 * 1024);
  try {
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write('GET /lines HTTP/1.1\r\nHost: test\r\n\r\n');
    await once(socket, 'readable'); // the answer has begun; nothing of it is read
    socket.destroy();
    const how = await done;
    expect(how.completed).toBe(false);
    expect(how.read).toBeLessThan(200 * 1024);
  } finally {
    server.close();
  }
});
