import { mkdirSync } from 'node:fs';
import S3rver from 's3rver';
import { serveS3PostPolicyFront, type SecretAccessKeyOf } from './s3-post-policy.js';

export interface LocalS3 {
  endpoint: string;
  stop(): Promise<void>;
}

/** Browsers upload job images straight to the bucket, so it allows cross-origin PUT/POST. */
const CORS = `<CORSConfiguration><CORSRule>
<AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedMethod>POST</AllowedMethod><AllowedMethod>HEAD</AllowedMethod>
<AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3000</MaxAgeSeconds>
</CORSRule></CORSConfiguration>`;

/**
 * s3rver with the images bucket, behind a front that checks browser uploads (presigned POSTs)
 * as S3 does: the policy's signature by a key `secretAccessKeyOf` knows, its expiry and every
 * condition (infra/local/s3-post-policy.ts). s3rver alone checks neither.
 */
export async function startLocalS3(options: { port: number; directory: string; bucket: string; secretAccessKeyOf: SecretAccessKeyOf }): Promise<LocalS3> {
  mkdirSync(options.directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory: options.directory,
    silent: true,
    configureBuckets: [{ name: options.bucket, configs: [CORS] }],
  });
  const { port } = await server.run();
  const front = await serveS3PostPolicyFront({ port: options.port, backend: `http://127.0.0.1:${port}`, secretAccessKeyOf: options.secretAccessKeyOf }).catch(async (error: unknown) => {
    await server.close();
    throw error;
  });
  return {
    endpoint: front.url,
    stop: async () => {
      await front.close();
      await server.close();
    },
  };
}
