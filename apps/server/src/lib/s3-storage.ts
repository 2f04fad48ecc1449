import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { checkStorageKey, StorageUnavailableError, type FileStorage } from './storage.ts';

/** Where the objects go: a bucket (and a prefix in it) of AWS S3 or an S3-compatible service. */
export interface S3Settings {
  bucket: string;
  /** '' or a folder-like prefix ending in '/', put in front of every key. */
  prefix: string;
  region: string;
  /** The service's address (MinIO, Ceph, R2, …); undefined for AWS S3 itself. */
  endpoint: string | undefined;
  /** Addresses objects as endpoint/bucket/key instead of bucket.endpoint/key. */
  forcePathStyle: boolean;
  /** Undefined: the AWS SDK's default chain (profile, web identity, container or instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | undefined;
}

/** The status of an S3 error answer, when the error is one. */
function statusOf(err: unknown): number | undefined {
  return err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined;
}

/**
 * Files as objects of an S3 bucket, so that several instances of the portal share them. A PUT is
 * atomic in S3 (readers see the whole object or none), downloads are streamed from the service
 * to the client without holding the file in memory.
 */
export function createS3Storage(settings: S3Settings): FileStorage {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // A bucket in another region than configured answers with a redirect: follow it.
    followRegionRedirects: true,
    // The SDK's default CRC checksums are not understood by every S3-compatible service; each
    // upload carries a Content-MD5 instead, which all of them check.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: 5_000 },
  });
  const { bucket, prefix } = settings;
  const putObject = (key: string, data: Buffer) =>
    client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: data,
        ContentLength: data.length,
        ContentMD5: createHash('md5').update(data).digest('base64'),
        ContentType: 'application/octet-stream',
      }),
    );
  const objectKey = (key: string) => {
    checkStorageKey(key);
    return prefix + key;
  };
  return {
    async put(key, data) {
      await putObject(objectKey(key), data);
    },
    async get(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        if (!(answer.Body instanceof Readable)) throw new Error('S3 answered without a body stream');
        return answer.Body;
      } catch (err) {
        if (err instanceof NoSuchKey || statusOf(err) === 404) return undefined;
        throw err;
      }
    },
    async delete(key) {
      // S3 answers a deletion of a missing object with success too.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },
    async check() {
      // A small object written and removed again: proves what uploads need (s3:PutObject and
      // s3:DeleteObject under the prefix), where HeadBucket would need s3:ListBucket as well.
      const probe = `${prefix}.check/${randomBytes(8).toString('hex')}`;
      try {
        await putObject(probe, Buffer.alloc(0));
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: probe }));
      } catch (err) {
        const status = statusOf(err);
        const reason =
          status === 404
            ? 'no such bucket'
            : status === 403
              ? 'access denied (check the credentials)'
              : err instanceof Error
                ? err.message || err.name
                : String(err);
        throw new StorageUnavailableError(`STORAGE_URL: cannot use the bucket ${bucket}: ${reason}`, {
          cause: err,
        });
      }
    },
    async close() {
      client.destroy();
    },
  };
}
