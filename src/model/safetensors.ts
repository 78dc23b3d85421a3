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

/**
 * Serialise tensors (in the given order) and string metadata. F32 only: every tensor is written as little-endian
 * F32 (the readers also take F16, BF16 and F64). Names are not checked for duplicates.
 * @throws RangeError if a tensor's data length differs from the product of its shape.
 */
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

/** One tensor's entry in a safetensors header: its dtype, shape and byte range after the header. */
export interface SafetensorsEntry {
  name: string;
  dtype: string;
  shape: number[];
  /** Byte offsets [begin, end) of its data, counted from the end of the header. */
  begin: number;
  end: number;
}

/** A safetensors file's header, read and checked without touching the tensors' data. */
export interface SafetensorsHeader {
  metadata: Record<string, string>;
  entries: SafetensorsEntry[];
  /** Where the data starts in the file (8 + the header's length). */
  base: number;
}

/** Largest dimension read (2^31 − 1): beyond it a shape is no model's. */
const MAX_DIM = 2 ** 31 - 1;
const isDim = (x: unknown): x is number =>
  Number.isInteger(x) && (x as number) >= 0 && (x as number) <= MAX_DIM;
const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * Read and check a safetensors file's header only (the metadata of a picked file, its tensors' names): every
 * entry's dtype, shape and offsets, each range inside the file and no two overlapping (a crafted header could
 * point hundreds of tensors at one region and make a reader copy it hundreds of times).
 * @throws {SafetensorsError} naming what is wrong: a short file, a header that is not a JSON object, metadata
 *   that is not an object of strings, an unsupported dtype, or offsets that do not fit the shape or the file.
 */
export function readSafetensorsHeader(bytes: Uint8Array): SafetensorsHeader {
  if (bytes.length < 8)
    throw new SafetensorsError(`file too short (${bytes.length} bytes) for a safetensors header`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n64 = dv.getBigUint64(0, true);
  const n = Number(n64);
  if (n > bytes.length - 8)
    throw new SafetensorsError(
      `its first 8 bytes give a header of ${n64} bytes, more than the ${bytes.length - 8} bytes after them: not a safetensors file, or cut short`,
    );
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  } catch (e) {
    throw new SafetensorsError(`header is not valid JSON: ${e}`);
  }
  if (!isRecord(header)) throw new SafetensorsError("header is not a JSON object");
  const base = 8 + n;
  const dataBytes = bytes.length - base;
  let metadata: Record<string, string> = {};
  const entries: SafetensorsEntry[] = [];
  for (const [name, entry] of Object.entries(header)) {
    if (name === "__metadata__") {
      if (!isRecord(entry) || !Object.values(entry).every((v) => typeof v === "string"))
        throw new SafetensorsError("its __metadata__ is not an object of strings");
      metadata = entry as Record<string, string>;
      continue;
    }
    const what = `tensor ${name.slice(0, 80)}`;
    if (!isRecord(entry)) throw new SafetensorsError(`${what}: its entry is not an object`);
    const { dtype, shape, data_offsets: offsets } = entry;
    const width = typeof dtype === "string" ? DTYPE_BYTES[dtype] : undefined;
    if (!width)
      throw new SafetensorsError(
        `${what}: unsupported dtype ${String(dtype).slice(0, 20)} (F32, F16, BF16, F64 are read)`,
      );
    if (!Array.isArray(shape) || !shape.every(isDim))
      throw new SafetensorsError(`${what}: its shape is not a list of sizes`);
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isDim) || offsets[0] > offsets[1])
      throw new SafetensorsError(`${what}: its data_offsets are not [begin, end] with 0 ≤ begin ≤ end`);
    const [begin, end] = offsets as [number, number];
    const count = shape.reduce((a: number, b: number) => a * b, 1);
    if (end - begin !== count * width)
      throw new SafetensorsError(`${what}: offsets [${begin}, ${end}] do not fit shape [${shape}] ${dtype}`);
    if (end > dataBytes) throw new SafetensorsError(`${what}: data runs past the end of the file`);
    entries.push({ name, dtype: dtype as string, shape: shape as number[], begin, end });
  }
  const byStart = [...entries].sort((a, b) => a.begin - b.begin);
  for (let i = 1; i < byStart.length; i++)
    if (byStart[i].begin < byStart[i - 1].end)
      throw new SafetensorsError(
        `tensors ${byStart[i - 1].name.slice(0, 80)} and ${byStart[i].name.slice(0, 80)} share bytes: a damaged or crafted file`,
      );
  return { metadata, entries, base };
}

/**
 * Parse a safetensors file: its header ({@link readSafetensorsHeader}, or the one already read from these bytes)
 * and every tensor as f32.
 * @throws {SafetensorsError} as readSafetensorsHeader does.
 */
export function decodeSafetensors(
  bytes: Uint8Array,
  header: SafetensorsHeader = readSafetensorsHeader(bytes),
): SafetensorsFile {
  const { metadata, entries, base } = header;
  const tensors = new Map<string, { shape: number[]; data: Float32Array }>();
  for (const { name, dtype, shape, begin, end } of entries) {
    const count = (end - begin) / DTYPE_BYTES[dtype];
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
