import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, DeleteBucketCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { loadConfig } from '../../shared/config/index.js';
import { createStorage } from '../../shared/storage/index.js';
import type { S3Storage } from '../../shared/storage/s3-storage.js';
import { storageContract } from './storage-contract.js';

// A local S3-compatible server (s3rver) on 127.0.0.1, its data in a temp folder.
let server: S3rver;
let dir: string;
let endpoint: string;
let bucketNo = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ockhub-s3rver-'));
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir });
  const address = await server.run();
  endpoint = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('S3 object storage (against a local S3-compatible server)', () => {
  let storage: S3Storage;
  let bucket: string;

  beforeEach(async () => {
    bucket = `ockhub-test-${++bucketNo}`;
    storage = createStorage(
      loadConfig({
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: endpoint,
        S3_BUCKET: bucket,
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
      }),
    ) as S3Storage;
    await storage.client.send(new CreateBucketCommand({ Bucket: bucket }));
  });

  const leftovers = async () => {
    const listed = await storage.client.send(new ListObjectsV2Command({ Bucket: bucket }));
    return (listed.Contents ?? []).map((o) => o.Key as string);
  };

  afterEach(async () => {
    for (const key of await leftovers()) await storage.delete(key.replace(/^\.meta\/(.*)\.json$/, '$1'));
    await storage.client.send(new DeleteBucketCommand({ Bucket: bucket })).catch(() => undefined);
  });

  storageContract(() => ({ storage, leftovers }));

  it('builds public URLs from the bucket URL, or from STORAGE_PUBLIC_BASE_URL (the CDN)', () => {
    expect(storage.publicUrl('videos/v_1.mp4')).toBe(`${endpoint}/${bucket}/videos/v_1.mp4`);
    expect(storage.originUrl('videos/v_1.mp4')).toBe(`${endpoint}/${bucket}/videos/v_1.mp4`);
    const cdn = createStorage(
      loadConfig({
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: endpoint,
        S3_BUCKET: bucket,
        STORAGE_PUBLIC_BASE_URL: 'https://cdn.example.com/media/',
      }),
    );
    expect(cdn.publicUrl('videos/v_1.mp4')).toBe('https://cdn.example.com/media/videos/v_1.mp4');
    expect(cdn.originUrl('videos/v_1.mp4')).toBe(`${endpoint}/${bucket}/videos/v_1.mp4`);
  });
});
