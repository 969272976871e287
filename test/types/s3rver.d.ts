// The part of s3rver (a local S3-compatible server for tests; it ships no types) that the storage tests use.
declare module 's3rver' {
  type S3rverOptions = { address?: string; port?: number; silent?: boolean; directory: string };
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
