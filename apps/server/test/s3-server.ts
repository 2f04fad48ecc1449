import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';

/**
 * An S3-compatible server on a free loopback port (s3rver, in this process, keeping its objects in
 * a temporary folder), with one empty bucket: for the tests of the S3 storage. It checks the
 * requests' AWS signatures against its one account, S3RVER/S3RVER.
 */
export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** The portal's variables to keep its files in the bucket, under the prefix given. */
  env(prefix?: string): Record<string, string>;
  /** The folder where the server keeps the bucket's objects. */
  directory: string;
  close(): Promise<void>;
}

export const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export async function startS3Server(bucket = 'portico-test'): Promise<TestS3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    directory,
    env: (prefix = '') => ({
      STORAGE_URL: `s3://${bucket}/${prefix}?endpoint=${encodeURIComponent(endpoint)}`,
      AWS_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
    }),
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
