import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('applies defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.publicUrlConfigured).toBe(false);
    expect(c.databaseUrl).toBeUndefined();
  });

  it("asks the captcha's default proof of work a browser does in a second or two", () => {
    // The answer is a counter between max/2 and max: on average 0.75 × max tries of `cost`
    // iterations. 37.5 million took 5.7-13.6 s in headless Chromium on 2 cores; 7.5 million about
    // 2 s under load (npm run bench:captcha, bench/README.md).
    const { cost, counterMax } = loadConfig({}).captcha;
    expect(0.75 * counterMax * cost).toBeLessThanOrEqual(7_500_000);
    expect(loadConfig({ NODE_ENV: 'test' }).captcha).toEqual({ cost: 1, counterMax: 20 });
    expect(loadConfig({ CAPTCHA_COST: '100', CAPTCHA_COUNTER_MAX: '50' }).captcha).toEqual({
      cost: 100,
      counterMax: 50,
    });
  });

  it('fails fast naming every bad variable', () => {
    expect(() => loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x' });
    } catch (err) {
      expect((err as Error).message).toContain('PORT');
      expect((err as Error).message).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
    }
  });

  it('needs OIDC_ISSUER and OIDC_CLIENT_ID together', () => {
    expect(() => loadConfig({ OIDC_ISSUER: 'https://idp.example.com' })).toThrow(
      /OIDC_ISSUER and OIDC_CLIENT_ID/,
    );
  });

  describe('STORAGE_URL', () => {
    it('keeps files in DATA_DIR/files without it', () => {
      expect(loadConfig({ DATA_DIR: '/srv/portico' }).storage).toEqual({
        kind: 'folder',
        dir: '/srv/portico/files',
      });
    });

    it('reads AWS S3: bucket, prefix, region and credentials from the standard variables', () => {
      const c = loadConfig({
        STORAGE_URL: 's3://portal-uploads/prod/files/',
        AWS_REGION: 'eu-central-1',
        AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
        AWS_SECRET_ACCESS_KEY: 'secret',
        AWS_SESSION_TOKEN: 'token',
      });
      expect(c.storage).toEqual({
        kind: 's3',
        bucket: 'portal-uploads',
        prefix: 'prod/files/',
        region: 'eu-central-1',
        endpoint: undefined,
        forcePathStyle: false,
        credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token' },
      });
    });

    it('reads an S3-compatible service from the URL parameters: path style by default there', () => {
      const minio = loadConfig({
        STORAGE_URL: 's3://uploads?endpoint=http%3A%2F%2Fminio.internal%3A9000&region=eu-west-1',
      }).storage;
      expect(minio).toMatchObject({
        kind: 's3',
        bucket: 'uploads',
        prefix: '',
        region: 'eu-west-1',
        endpoint: 'http://minio.internal:9000',
        forcePathStyle: true,
        // Without AWS_ACCESS_KEY_ID: the AWS SDK's default chain.
        credentials: undefined,
      });
      const r2 = loadConfig({
        STORAGE_URL: 's3://uploads/portal?region=auto&forcePathStyle=false',
        AWS_ENDPOINT_URL_S3: 'https://account.r2.cloudflarestorage.com',
      }).storage;
      expect(r2).toMatchObject({
        region: 'auto',
        prefix: 'portal/',
        endpoint: 'https://account.r2.cloudflarestorage.com',
        forcePathStyle: false,
      });
      // Without a region anywhere: us-east-1, which MinIO and Ceph accept.
      expect(loadConfig({ STORAGE_URL: 's3://uploads' }).storage).toMatchObject({ region: 'us-east-1' });
    });

    it('names what is wrong', () => {
      const problems: [Record<string, string>, string][] = [
        [{ STORAGE_URL: 'https://bucket/x' }, 'STORAGE_URL: must be an s3://bucket/prefix URL'],
        [{ STORAGE_URL: 's3://Bad_Bucket' }, '"Bad_Bucket" is not a bucket name'],
        [{ STORAGE_URL: 's3://ab' }, '"ab" is not a bucket name'],
        [{ STORAGE_URL: 's3://key:secret@bucket' }, 'put credentials in AWS_ACCESS_KEY_ID'],
        [{ STORAGE_URL: 's3://bucket:9000' }, 'a port belongs in the endpoint parameter'],
        [{ STORAGE_URL: 's3://bucket?pathStyle=true' }, 'unknown parameter "pathStyle"'],
        [{ STORAGE_URL: 's3://bucket?region=a&region=b' }, '"region" is given more than once'],
        [{ STORAGE_URL: 's3://bucket?endpoint=minio:9000' }, 'endpoint parameter must be an http'],
        [{ STORAGE_URL: 's3://bucket?forcePathStyle=yes' }, 'forcePathStyle must be true or false'],
        [{ STORAGE_URL: 's3://bucket?region=' }, 'the region parameter is empty'],
        [{ STORAGE_URL: 's3://bucket/%E0%A4%A' }, 'the prefix is not a valid percent-encoded path'],
        [{ STORAGE_URL: 's3://bucket/a%2F..%2Fb' }, 'the prefix may not contain . or .. parts'],
        [
          { STORAGE_URL: 's3://bucket', AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE' },
          'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be given together',
        ],
        [{ STORAGE_URL: 's3://bucket', AWS_ENDPOINT_URL_S3: 'minio:9000' }, 'AWS_ENDPOINT_URL_S3'],
      ];
      for (const [env, message] of problems) {
        expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
        expect(() => loadConfig(env), JSON.stringify(env)).toThrow(message);
      }
    });
  });

  it('reads the mutual-TLS settings (issue 28) and refuses inconsistent ones', () => {
    expect(loadConfig({}).mtls).toBeUndefined();
    expect(
      loadConfig({
        PUBLIC_URL: 'https://portal.example',
        SANDBOX_MTLS_PORT: '8443',
        MTLS_CERT_HEADER: 'X-Client-Cert',
      }).mtls,
    ).toMatchObject({ port: 8443, certHeader: 'x-client-cert', publicUrl: 'https://portal.example:8443' });
    expect(() => loadConfig({ SANDBOX_MTLS_PORT: '8443', MTLS_SERVER_CERT: 'server.pem' })).toThrow(
      /MTLS_SERVER_CERT and MTLS_SERVER_KEY must be given together/,
    );
    expect(() => loadConfig({ PORT: '8443', SANDBOX_MTLS_PORT: '8443' })).toThrow(
      /SANDBOX_MTLS_PORT must differ from PORT/,
    );
    expect(() => loadConfig({ MTLS_CLIENT_CA: 'ca.pem' })).toThrow(/need SANDBOX_MTLS_PORT/);
    expect(() => loadConfig({ MTLS_CERT_HEADER: 'X Client' })).toThrow(
      /MTLS_CERT_HEADER: must be a header name/,
    );
    expect(() => loadConfig({ SANDBOX_MTLS_PORT: '8443', MTLS_PUBLIC_URL: 'http://x.example' })).toThrow(
      /MTLS_PUBLIC_URL/,
    );
  });
});
