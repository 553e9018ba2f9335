declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  /** RFC 8188 decryption; for aes128gcm the sender's key is the header's keyid (RFC 8291 §4). */
  export function decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string | Buffer }): Buffer;
}
