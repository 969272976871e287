// Builds the object storage the configuration asks for.
import path from 'node:path';
import type { Config } from '../config/index.js';
import { LocalDiskStorage } from './local-disk-storage.js';
import type { ObjectStorage } from './object-storage.js';

export { objectKeyProblem } from './object-keys.js';
export type { ObjectStat, ObjectStorage, PutOptions, StoredObject } from './object-storage.js';

export type StorageConfig = Pick<
  Config,
  'STORAGE_DRIVER' | 'STORAGE_LOCAL_DIR' | 'STORAGE_PUBLIC_BASE_URL' | 'publicBaseUrl'
>;

export function createStorage(config: StorageConfig): ObjectStorage {
  switch (config.STORAGE_DRIVER) {
    case 'local':
      return new LocalDiskStorage({
        root: path.resolve(config.STORAGE_LOCAL_DIR),
        publicBaseUrl: config.STORAGE_PUBLIC_BASE_URL ?? `${config.publicBaseUrl}/files`,
        originBaseUrl: `${config.publicBaseUrl}/files`,
      });
    case 's3':
      throw new Error(
        'STORAGE_DRIVER=s3 is not built yet (it arrives with the video work); use STORAGE_DRIVER=local for now.',
      );
  }
}
