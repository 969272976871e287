import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../shared/config/index.js';
import { createStorage, type ObjectStorage } from '../../shared/storage/index.js';
import { storageContract } from './storage-contract.js';

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('local disk object storage', () => {
  let root: string;
  let storage: ObjectStorage;

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'ockhub-storage-'));
    storage = createStorage(loadConfig({ STORAGE_LOCAL_DIR: root, PUBLIC_BASE_URL: 'https://hub.example.com' }));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  storageContract(() => ({ storage, leftovers: () => filesUnder(root) }));

  it('builds public URLs under PUBLIC_BASE_URL/files unless STORAGE_PUBLIC_BASE_URL is set', () => {
    expect(storage.publicUrl('skills/abc/v1.0.0/bundle.zip')).toBe(
      'https://hub.example.com/files/skills/abc/v1.0.0/bundle.zip',
    );
    const cdn = createStorage(
      loadConfig({ STORAGE_LOCAL_DIR: root, STORAGE_PUBLIC_BASE_URL: 'https://cdn.example.com/media/' }),
    );
    expect(cdn.publicUrl('videos/v_1.mp4')).toBe('https://cdn.example.com/media/videos/v_1.mp4');
  });

  it('refuses the s3 driver without a bucket', () => {
    expect(() => createStorage(loadConfig({ STORAGE_DRIVER: 's3' }))).toThrow(/S3_BUCKET/);
  });
});
