/**
 * The safetensors format (Hugging Face): 8-byte little-endian header length N, N bytes of JSON header
 * {name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__": {string: string}}, then the raw
 * little-endian tensor bytes. We write F32 only and read F32 (F16/BF16/F64 are converted to f32 on read).
 * Small enough to implement here; no maintained JS library exists for it.
 */

export interface NamedTensor {
  name: string;
  shape: number[];
  data: Float32Array;
}

export interface SafetensorsFile {
  tensors: Map<string, { shape: number[]; data: Float32Array }>;
  metadata: Record<string, string>;
}

/** A corrupt or unsupported safetensors file; the message says what is wrong. */
export class SafetensorsError extends Error {
  override readonly name = "SafetensorsError";
}

/** Serialise tensors (in the given order) and string metadata. */
export function encodeSafetensors(tensors: NamedTensor[], metadata: Record<string, string> = {}): Uint8Array {
  const header: Record<string, unknown> = { __metadata__: metadata };
  let offset = 0;
  for (const t of tensors) {
    const n = t.shape.reduce((a, b) => a * b, 1);
    if (n !== t.data.length)
      throw new RangeError(`tensor ${t.name}: shape [${t.shape}] needs ${n} values, got ${t.data.length}`);
    header[t.name] = { dtype: "F32", shape: t.shape, data_offsets: [offset, offset + 4 * n] };
    offset += 4 * n;
  }
  let json = JSON.stringify(header);
  while ((8 + json.length) % 8 !== 0) json += " "; // align the data section to 8 bytes, as the reference writer does
  const headerBytes = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + headerBytes.length + offset);
  const dv = new DataView(out.buffer);
  dv.setBigUint64(0, BigInt(headerBytes.length), true);
  out.set(headerBytes, 8);
  let p = 8 + headerBytes.length;
  for (const t of tensors) {
    out.set(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength), p);
    p += t.data.byteLength;
  }
  return out;
}

function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? Number.NaN : s * Number.POSITIVE_INFINITY;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

const DTYPE_BYTES: Record<string, number> = { F32: 4, F16: 2, BF16: 2, F64: 8 };

/**
 * Parse a safetensors file.
 * @throws {SafetensorsError} when the file is truncated, the header is not JSON, a dtype is unsupported, or
 *   a tensor's offsets do not match its shape or run past the end.
 */
export function decodeSafetensors(bytes: Uint8Array): SafetensorsFile {
  if (bytes.length < 8)
    throw new SafetensorsError(`file too short (${bytes.length} bytes) for a safetensors header`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n64 = dv.getBigUint64(0, true);
  const n = Number(n64);
  if (n > bytes.length - 8)
    throw new SafetensorsError(
      `its first 8 bytes give a header of ${n64} bytes, more than the ${bytes.length - 8} bytes after them: not a safetensors file, or cut short`,
    );
  let header: Record<
    string,
    { dtype: string; shape: number[]; data_offsets: [number, number] } | Record<string, string>
  >;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  } catch (e) {
    throw new SafetensorsError(`header is not valid JSON: ${e}`);
  }
  const base = 8 + n;
  const tensors = new Map<string, { shape: number[]; data: Float32Array }>();
  let metadata: Record<string, string> = {};
  for (const [name, entry] of Object.entries(header)) {
    if (name === "__metadata__") {
      metadata = entry as Record<string, string>;
      continue;
    }
    const { dtype, shape, data_offsets } = entry as {
      dtype: string;
      shape: number[];
      data_offsets: [number, number];
    };
    const width = DTYPE_BYTES[dtype];
    if (!width)
      throw new SafetensorsError(`tensor ${name}: unsupported dtype ${dtype} (F32, F16, BF16, F64 are read)`);
    const count = shape.reduce((a, b) => a * b, 1);
    const [begin, end] = data_offsets;
    if (end - begin !== count * width)
      throw new SafetensorsError(
        `tensor ${name}: offsets [${begin}, ${end}] do not fit shape [${shape}] ${dtype}`,
      );
    if (base + end > bytes.length)
      throw new SafetensorsError(`tensor ${name}: data runs past the end of the file`);
    const data = new Float32Array(count);
    const tdv = new DataView(bytes.buffer, bytes.byteOffset + base + begin, end - begin);
    for (let i = 0; i < count; i++) {
      if (dtype === "F32") data[i] = tdv.getFloat32(4 * i, true);
      else if (dtype === "F64") data[i] = tdv.getFloat64(8 * i, true);
      else if (dtype === "F16") data[i] = halfToFloat(tdv.getUint16(2 * i, true));
      else data[i] = new Float32Array(new Uint32Array([tdv.getUint16(2 * i, true) << 16]).buffer)[0];
    }
    tensors.set(name, { shape, data });
  }
  return { tensors, metadata };
}
