// Uploads cut off mid-body, as a client that disconnects does: every multipart route lets go of its temp file and
// its handle, and of the request.
import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Actors, createActors, createDraft } from '../support/catalog-factory.js';
import { type GatewayWorld, openGatewayWorld } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { inOrg } from '../support/org-fixtures.js';

let w: GatewayWorld;
let a: Actors;
let server: Server;
let port: number;
/** Requests the API server has received, by path. */
const received = new Map<string, number>();
beforeAll(async () => {
  // A storage folder of its own: other tests in this jest worker write temp files of their own. One publisher's 50
  // uploads at once: its share of uploads in progress (SKILL_UPLOADS_PER_ACCOUNT) is off here, so that every one
  // of them is writing its temp file when it is cut off.
  w = await openGatewayWorld({
    balance: '10',
    env: {
      STORAGE_LOCAL_DIR: mkdtempSync(path.join(tmpdir(), 'ockhub-aborted-uploads-')),
      SKILL_UPLOADS_PER_ACCOUNT: '0',
    },
  });
  a = await createActors(w.h);
  server = w.h.app.listen(0, '127.0.0.1');
  // Express's own listener runs first and strips a mounted router's prefix from req.url.
  server.on('request', (req: { originalUrl?: string; url?: string }) => {
    const url = req.originalUrl ?? req.url ?? '';
    received.set(url, (received.get(url) ?? 0) + 1);
  });
  await new Promise((r) => server.once('listening', r));
  port = (server.address() as AddressInfo).port;
}, 60_000);
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await w?.close();
  if (w) rmSync(storageRoot(), { recursive: true, force: true });
});

const storageRoot = () => path.resolve(w.h.config.STORAGE_LOCAL_DIR);
const tempFiles = () =>
  existsSync(path.join(storageRoot(), '.tmp')) ? readdirSync(path.join(storageRoot(), '.tmp')) : [];

/** This process's open file descriptors that point into the storage folder. */
const storageHandles = () =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(storageRoot());
    } catch {
      return false;
    }
  }).length;

const BOUNDARY = 'ockhubAbortBoundary';

/**
 * Sends the head of a multipart request that announces `announcedBytes` of body, the start of a file part and
 * `sentFileBytes` of it; resolves with the socket, to be destroyed mid-body.
 */
async function startUpload(
  route: string,
  headers: Record<string, string>,
  field: string,
  sentFileBytes: number,
  contentType = 'application/zip',
) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  const partHead = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="f.bin"\r\nContent-Type: ${contentType}\r\n\r\n`;
  const announcedBytes = partHead.length + 5 * 1024 * 1024;
  const head = [
    `POST ${route} HTTP/1.1`,
    'Host: 127.0.0.1',
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
    `Content-Length: ${announcedBytes}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n');
  socket.write(head + partHead);
  socket.write(Buffer.alloc(sentFileBytes, 0x50));
  return socket;
}

it('leaves no temp file and no open handle after 50 skill bundle uploads aborted mid-body', async () => {
  const draft = await createDraft(w.h, a, 'skill');
  const route = `/api/v1/publisher/skill/${draft.id}/versions/${draft.versionId}/package`;
  const handlesBefore = storageHandles();
  const sockets = await Promise.all(
    Array.from({ length: 50 }, () => startUpload(route, bearer(a.publisher.session), 'file', 256 * 1024)),
  );
  // Every upload is writing its temp file: the cut happens mid-body, with the file open.
  await waitUntil(async () => storageHandles() - handlesBefore >= 50, 20_000, 50);
  for (const s of sockets) s.destroy();

  await waitUntil(async () => storageHandles() === handlesBefore && tempFiles().length === 0, 10_000, 50);
  expect(tempFiles()).toEqual([]);
  expect(storageHandles()).toBe(handlesBefore);
}, 60_000);

const openConnections = () =>
  new Promise<number>((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : resolve(n))));

it('lets go of 50 video creates and 50 bulk invites aborted mid-file: no connection, task or invite left', async () => {
  const videoSockets = await Promise.all(
    Array.from({ length: 50 }, () =>
      startUpload('/v1/videos', bearer(w.key), 'input_reference', 512 * 1024, 'image/png'),
    ),
  );
  const inviteSockets = await Promise.all(
    Array.from({ length: 50 }, () =>
      startUpload('/api/organization/bulk-invite', inOrg(w.org.admin, w.org.id), 'file', 64 * 1024, 'text/csv'),
    ),
  );
  await waitUntil(
    async () => (received.get('/v1/videos') ?? 0) >= 50 && (received.get('/api/organization/bulk-invite') ?? 0) >= 50,
    20_000,
    50,
  );
  for (const s of [...videoSockets, ...inviteSockets]) s.destroy();

  await waitUntil(async () => (await openConnections()) === 0, 10_000, 50);
  const videos = await w.h.http.get('/v1/videos').set(bearer(w.key));
  expect(videos.body.data).toEqual([]);
  const invites = await w.h.http.get('/api/organization/invite-tokens').set(inOrg(w.org.admin, w.org.id));
  expect(invites.body.data).toEqual([]);
  const wallet = await w.h.http.get('/api/organization/wallet').set(inOrg(w.org.admin, w.org.id));
  expect(wallet.body.data).toMatchObject({ balance: 10, frozenAmount: 0 });
  expect(tempFiles()).toEqual([]);
}, 60_000);
