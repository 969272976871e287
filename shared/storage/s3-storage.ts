// The S3 driver: objects in one bucket of any S3-compatible endpoint, streamed up with a multipart Upload (never
// whole in memory); the size, type and sha256 of each object are recorded in a small sidecar object.
import { createHash } from 'node:crypto';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  type HeadObjectCommandOutput,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { trimTrailing } from '../text/trim-trailing.js';
import { assertObjectKey } from './object-keys.js';
import {
  type ByteRange,
  type ObjectMeta,
  type ObjectStat,
  type ObjectStorage,
  objectNotFound,
  objectSha256,
  objectTooLarge,
  type PutOptions,
  readLimited,
  readObjectLimited,
  type StoredObject,
} from './object-storage.js';

export type S3StorageOptions = {
  bucket: string;
  region: string;
  /** Any S3-compatible endpoint (path-style addressing); AWS itself when unset. */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** The CDN in front of the bucket; defaults to the bucket's own URL. */
  publicBaseUrl?: string;
};

const META_PREFIX = '.meta/';
const PART_BYTES = 8 * 1024 * 1024;

const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

export class S3Storage implements ObjectStorage {
  readonly driver = 's3' as const;
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly originBaseUrl: string;
  private readonly publicBaseUrl: string;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
      ...(options.accessKeyId && options.secretAccessKey
        ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
        : {}),
      // Checksums only where the API requires them: many S3-compatible servers do not speak the newer trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.originBaseUrl = options.endpoint
      ? `${trimTrailing(options.endpoint, /\//)}/${options.bucket}`
      : `https://${options.bucket}.s3.${options.region}.amazonaws.com`;
    this.publicBaseUrl = trimTrailing(options.publicBaseUrl ?? this.originBaseUrl, /\//);
  }

  async put(key: string, body: Readable, options: PutOptions): Promise<StoredObject> {
    assertObjectKey(key);
    const { maxBytes } = options;
    const hash = createHash('sha256');
    let sizeBytes = 0;
    let failure: unknown;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        sizeBytes += chunk.length;
        if (maxBytes !== undefined && sizeBytes > maxBytes) {
          failure = objectTooLarge(maxBytes);
          return done(failure as Error);
        }
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: meter, ContentType: options.contentType },
      partSize: PART_BYTES,
      queueSize: 2,
      leavePartsOnError: false,
    });
    const piping = pipeline(body, meter).catch((err: unknown) => {
      failure ??= err;
      throw err;
    });
    try {
      await Promise.all([piping, upload.done()]);
    } catch (err) {
      await upload.abort().catch(() => undefined);
      throw failure ?? err;
    }
    const sha256 = hash.digest('hex');
    await this.writeMeta(key, { contentType: options.contentType, sizeBytes, sha256 });
    return { key, sizeBytes, sha256 };
  }

  /**
   * Nothing here to remove: a failed write aborts its multipart upload (`upload.abort()` above), and nothing is
   * written to local disk. An upload cut by a crash stays an incomplete multipart upload in the bucket, which the
   * bucket's AbortIncompleteMultipartUpload lifecycle rule removes (docs/operations.md).
   */
  async removeOrphanedTemp(_olderThanMs: number): Promise<number> {
    return 0;
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertObjectKey(key);
    try {
      // A ranged GetObject: the store sends only those bytes (206), so a slice costs what its bytes cost.
      const Range = range ? `bytes=${range.start}-${range.end}` : undefined;
      const reply = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range }));
      return reply.Body as Readable;
    } catch (err) {
      throw isMissing(err) ? objectNotFound(key) : err;
    }
  }

  getBuffer(key: string, maxBytes: number): Promise<Buffer> {
    return readObjectLimited(this, key, maxBytes);
  }

  async stat(key: string): Promise<ObjectStat | null> {
    assertObjectKey(key);
    let head: HeadObjectCommandOutput;
    try {
      head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    const sizeBytes = head.ContentLength ?? 0;
    const meta = await this.readMeta(key);
    return {
      key,
      sizeBytes,
      sha256: await objectSha256(this, key, sizeBytes, meta),
      contentType: meta?.contentType ?? head.ContentType ?? 'application/octet-stream',
      modifiedAt: head.LastModified ?? new Date(),
    };
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    assertObjectKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: `${META_PREFIX}${key}.json` }));
  }

  publicUrl(key: string): string {
    assertObjectKey(key);
    return `${this.publicBaseUrl}/${encodeKey(key)}`;
  }

  originUrl(key: string): string {
    assertObjectKey(key);
    return `${this.originBaseUrl}/${encodeKey(key)}`;
  }

  private async writeMeta(key: string, meta: ObjectMeta): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: `${META_PREFIX}${key}.json`,
        Body: JSON.stringify(meta),
        ContentType: 'application/json',
      }),
    );
  }

  private async readMeta(key: string): Promise<ObjectMeta | null> {
    try {
      const reply = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: `${META_PREFIX}${key}.json` }),
      );
      return JSON.parse((await readLimited(reply.Body as Readable, 64 * 1024)).toString('utf8')) as ObjectMeta;
    } catch {
      return null;
    }
  }
}
