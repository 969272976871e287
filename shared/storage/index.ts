// Builds the object storage the configuration asks for.
import path from 'node:path';
import type { Config } from '../config/index.js';
import { LocalDiskStorage } from './local-disk-storage.js';
import type { ObjectStorage } from './object-storage.js';
import { S3Storage } from './s3-storage.js';

export { objectKeyProblem } from './object-keys.js';
export type { ByteRange, ObjectStat, ObjectStorage, PutOptions, StoredObject } from './object-storage.js';

export type StorageConfig = Pick<
  Config,
  | 'STORAGE_DRIVER'
  | 'STORAGE_LOCAL_DIR'
  | 'STORAGE_PUBLIC_BASE_URL'
  | 'publicBaseUrl'
  | 'S3_ENDPOINT'
  | 'S3_BUCKET'
  | 'S3_REGION'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
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
      if (!config.S3_BUCKET) throw new Error('STORAGE_DRIVER=s3 needs S3_BUCKET.');
      return new S3Storage({
        bucket: config.S3_BUCKET,
        region: config.S3_REGION,
        ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
        ...(config.S3_ACCESS_KEY_ID ? { accessKeyId: config.S3_ACCESS_KEY_ID } : {}),
        ...(config.S3_SECRET_ACCESS_KEY ? { secretAccessKey: config.S3_SECRET_ACCESS_KEY } : {}),
        ...(config.STORAGE_PUBLIC_BASE_URL ? { publicBaseUrl: config.STORAGE_PUBLIC_BASE_URL } : {}),
      });
  }
}
