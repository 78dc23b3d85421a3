/**
 * Content fingerprints: SHA-256 (FIPS 180-4, via @noble/hashes, which works where `crypto.subtle` does not:
 * a page served over plain http on a school's network is not a secure context).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

const memo = new WeakMap<Float32Array, string>();

/** SHA-256 of `bytes`, 64 lowercase hex digits (a 3 MB file: about 20 ms). */
export function bytesDigest(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes));
}

/**
 * SHA-256 of a weight vector's bytes (little-endian float32, as in memory). Memoised per array: callers must not
 * mutate an array they fingerprinted (start models are never written to).
 */
export function weightsDigest(params: Float32Array): string {
  let d = memo.get(params);
  if (d === undefined) {
    d = bytesDigest(new Uint8Array(params.buffer, params.byteOffset, params.byteLength));
    memo.set(params, d);
  }
  return d;
}
