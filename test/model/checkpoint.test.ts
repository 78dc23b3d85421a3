import { describe, expect, it } from "vitest";
import { loadCheckpoint, saveCheckpoint } from "../../src/model/checkpoint";
import { preset } from "../../src/model/config";
import { initParams, paramLayout, spec } from "../../src/model/params";
import {
  decodeSafetensors,
  encodeSafetensors,
  readSafetensorsHeader,
  SafetensorsError,
} from "../../src/model/safetensors";
import { Rng } from "../../src/util/rng";

describe("safetensors", () => {
  it("round-trips tensors and metadata, with an 8-byte aligned data section", () => {
    const bytes = encodeSafetensors(
      [
        { name: "a", shape: [2, 3], data: Float32Array.from([1, 2, 3, 4, 5, 6]) },
        { name: "b", shape: [1], data: Float32Array.from([-0.5]) },
      ],
      { note: "hi" },
    );
    const headerLen = Number(new DataView(bytes.buffer).getBigUint64(0, true));
    expect((8 + headerLen) % 8).toBe(0);
    const f = decodeSafetensors(bytes);
    expect(f.metadata.note).toBe("hi");
    expect([...f.tensors.get("a")!.data]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(f.tensors.get("a")!.shape).toEqual([2, 3]);
    expect([...f.tensors.get("b")!.data]).toEqual([-0.5]);
  });

  it("rejects truncated, non-JSON and inconsistent files with clear errors", () => {
    const good = encodeSafetensors([{ name: "a", shape: [4], data: new Float32Array(4) }]);
    expect(() => decodeSafetensors(good.subarray(0, 4))).toThrow(/too short/);
    expect(() => decodeSafetensors(good.subarray(0, good.length - 4))).toThrow(/past the end/);
    const bad = good.slice();
    bad[8] = "x".charCodeAt(0);
    expect(() => decodeSafetensors(bad)).toThrow(SafetensorsError);
    const huge = good.slice();
    new DataView(huge.buffer).setBigUint64(0, 1n << 40n, true);
    expect(() => decodeSafetensors(huge)).toThrow(
      /header of \d+ bytes, more than the \d+ bytes after them: not a safetensors file, or cut short/,
    );
  });

  it("refuses crafted headers: shared bytes, negative offsets, metadata that is no object of strings", () => {
    /** A file of `data` bytes after a header given as JSON. */
    const file = (header: unknown, data = 16) => {
      const h = new TextEncoder().encode(JSON.stringify(header));
      const out = new Uint8Array(8 + h.length + data);
      new DataView(out.buffer).setBigUint64(0, BigInt(h.length), true);
      out.set(h, 8);
      return out;
    };
    const t = (begin: number, end: number) => ({
      dtype: "F32",
      shape: [(end - begin) / 4],
      data_offsets: [begin, end],
    });
    expect(decodeSafetensors(file({ a: t(0, 8), b: t(8, 16) })).tensors.size).toBe(2);
    // 300 entries pointing at one region would be copied 300 times (5 GB from a 17 MB file).
    expect(() => readSafetensorsHeader(file({ a: t(0, 16), b: t(0, 16) }))).toThrow(/share bytes/);
    expect(() => readSafetensorsHeader(file({ a: t(4, 12), b: t(0, 8) }))).toThrow(/share bytes/);
    expect(() =>
      readSafetensorsHeader(file({ a: { dtype: "F32", shape: [-1], data_offsets: [-4, 0] } })),
    ).toThrow(/shape is not a list of sizes/);
    expect(() =>
      readSafetensorsHeader(file({ a: { dtype: "F32", shape: [1], data_offsets: [-4, 0] } })),
    ).toThrow(/data_offsets are not/);
    expect(() => readSafetensorsHeader(file({ __metadata__: "abc" }))).toThrow(
      /__metadata__ is not an object/,
    );
    expect(() => readSafetensorsHeader(file({ __metadata__: { a: 1 } }))).toThrow(/object of strings/);
    expect(() => readSafetensorsHeader(file([1, 2]))).toThrow(/not a JSON object/);
    expect(() => readSafetensorsHeader(file({ a: "x" }))).toThrow(/entry is not an object/);
    expect(readSafetensorsHeader(file({ __metadata__: { step: "3" }, a: t(0, 16) })).metadata).toEqual({
      step: "3",
    });
  });
});

describe("checkpoint", () => {
  it("saves and loads a model with its config and tokenizer reference", () => {
    const config = preset("nano");
    const layout = paramLayout(config);
    const rng = new Rng(1);
    const params = initParams(layout, () => rng.normal());
    const bytes = saveCheckpoint({
      config,
      params,
      tokenizer: "models/x/tokenizer.json",
      info: { step: "12" },
    });
    const ck = loadCheckpoint(bytes);
    expect(ck.config).toEqual(config);
    expect(ck.tokenizer).toBe("models/x/tokenizer.json");
    expect(ck.info.step).toBe("12");
    expect(ck.params).toEqual(params);
    const f = decodeSafetensors(bytes);
    expect(f.tensors.get("h.0.attn.c_attn.weight")!.shape).toEqual([3 * config.nEmbd, config.nEmbd]);
    expect(spec(layout, "wte.weight").offset).toBe(0);
  });

  it("carries other models of the same config (PPO's value model) as '<name>.' tensors, and none by default", () => {
    const config = preset("nano");
    const layout = paramLayout(config);
    const rng = new Rng(2);
    const params = initParams(layout, () => rng.normal());
    const value = initParams(layout, () => rng.normal());
    const bytes = saveCheckpoint({ config, params, tokenizer: "", info: {}, extra: { value_model: value } });
    const ck = loadCheckpoint(bytes);
    expect(ck.params).toEqual(params);
    expect(ck.extra).toEqual({ value_model: value });
    expect(decodeSafetensors(bytes).tensors.has("value_model.h.0.ln_1.weight")).toBe(true);
    expect(loadCheckpoint(saveCheckpoint({ config, params, tokenizer: "", info: {} })).extra).toEqual({});
    expect(() =>
      saveCheckpoint({ config, params, tokenizer: "", info: {}, extra: { "v.m": value } }),
    ).toThrow(/not \[a-z\]/);
    expect(() =>
      saveCheckpoint({
        config,
        params,
        tokenizer: "",
        info: {},
        extra: { value_model: new Float32Array(3) },
      }),
    ).toThrow(/value_model has 3 values/);
    // An extra model with a tensor missing is a damaged file, named as such.
    const f = decodeSafetensors(bytes);
    const cut = [...f.tensors.entries()]
      .filter(([n]) => n !== "value_model.ln_f.bias")
      .map(([name, t]) => ({ name, ...t }));
    expect(() => loadCheckpoint(encodeSafetensors(cut, f.metadata))).toThrow(
      /missing tensor "value_model.ln_f.bias"/,
    );
  });

  it("carries AdamW states (a reload's checkpoint) beside the weights, the step counts in the metadata", () => {
    const config = preset("nano");
    const layout = paramLayout(config);
    const rng = new Rng(3);
    const params = initParams(layout, () => rng.normal());
    const value = initParams(layout, () => rng.normal());
    const moments = (n: number, t: number) => ({
      t,
      m: Float32Array.from({ length: n }, () => rng.normal()),
      v: Float32Array.from({ length: n }, () => Math.abs(rng.normal())),
    });
    // The policy's moments may be longer than the layout (a value head trained with it).
    const optimizers = { "": moments(layout.size + 33, 7), value_model: moments(layout.size, 7) };
    const bytes = saveCheckpoint({
      config,
      params,
      tokenizer: "",
      info: { steps: "7" },
      extra: { value_model: value },
      optimizers,
    });
    const ck = loadCheckpoint(bytes);
    expect(ck.optimizers).toEqual(optimizers);
    expect(ck.extra).toEqual({ value_model: value }); // the moments are not taken for an extra model
    expect(ck.info).toEqual({ steps: "7" });
    // Weights only (an export): none, and no step counts.
    expect(
      loadCheckpoint(saveCheckpoint({ config, params, tokenizer: "", info: {} })).optimizers,
    ).toBeUndefined();
    // Damaged: a missing moment, a non-finite one, step counts that are no whole numbers.
    const f = decodeSafetensors(bytes);
    const tensors = (drop: string, patch?: (n: string, d: Float32Array) => Float32Array) =>
      [...f.tensors.entries()]
        .filter(([n]) => n !== drop)
        .map(([name, t]) => ({ name, shape: t.shape, data: patch ? patch(name, t.data) : t.data }));
    expect(() => loadCheckpoint(encodeSafetensors(tensors("adamw.value_model.v"), f.metadata))).toThrow(
      /missing tensor "adamw.value_model.v"/,
    );
    const nan = tensors("", (n, d) =>
      n === "adamw.m" ? Float32Array.from(d, (x, i) => (i === 2 ? Number.NaN : x)) : d,
    );
    expect(() => loadCheckpoint(encodeSafetensors(nan, f.metadata))).toThrow(/"adamw.m" holds a non-finite/);
    for (const t of ['{"": -1}', '{"": 1.5}', "[3]", "x"])
      expect(() =>
        loadCheckpoint(encodeSafetensors(tensors(""), { ...f.metadata, "rlhf_playground.adamw_t": t })),
      ).toThrow(SafetensorsError);
  });

  it("names what is wrong in a foreign or damaged checkpoint", () => {
    const plain = encodeSafetensors([{ name: "a", shape: [1], data: new Float32Array(1) }]);
    expect(() => loadCheckpoint(plain)).toThrow(/not an RLHF Playground checkpoint/);
    const config = preset("nano");
    const layout = paramLayout(config);
    const bytes = saveCheckpoint({ config, params: new Float32Array(layout.size), tokenizer: "", info: {} });
    const f = decodeSafetensors(bytes);
    const tensors = [...f.tensors.entries()]
      .filter(([n]) => n !== "ln_f.bias")
      .map(([name, t]) => ({ name, ...t }));
    const missing = encodeSafetensors(tensors, f.metadata);
    expect(() => loadCheckpoint(missing)).toThrow(/missing tensor "ln_f.bias"/);
  });

  it("refuses non-finite weights, naming the tensor (a diverged run's; an F64 value beyond f32's range)", () => {
    const config = preset("nano");
    const layout = paramLayout(config);
    const params = new Float32Array(layout.size).fill(0.01);
    const ln = layout.specs.find((x) => x.name === "h.0.ln_1.weight");
    if (!ln) throw new Error("no h.0.ln_1.weight in the layout");
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      const p = params.slice();
      p[ln.offset + 3] = bad;
      const bytes = saveCheckpoint({ config, params: p, tokenizer: "", info: {} });
      expect(() => loadCheckpoint(bytes)).toThrow(
        new RegExp(`tensor "h\\.0\\.ln_1\\.weight" holds ${bad} at index 3: weights must be finite`),
      );
    }
    // An extra model's tensors too (PPO's value model), and an F64 file whose value overflows f32.
    const value = params.slice();
    value[0] = Number.NaN;
    const withExtra = saveCheckpoint({
      config,
      params,
      tokenizer: "",
      info: {},
      extra: { value_model: value },
    });
    expect(() => loadCheckpoint(withExtra)).toThrow(/tensor "value_model\.wte\.weight" holds NaN at index 0/);
    const f = decodeSafetensors(saveCheckpoint({ config, params, tokenizer: "", info: {} }));
    const tensors = [...f.tensors.entries()].map(([name, t]) => ({ name, ...t }));
    const f64 = encodeF64(tensors, f.metadata, "ln_f.bias", 1e300);
    expect(() => loadCheckpoint(f64)).toThrow(/tensor "ln_f\.bias" holds Infinity at index 0/);
    expect(() => loadCheckpoint(saveCheckpoint({ config, params, tokenizer: "", info: {} }))).not.toThrow();
  });
});

describe("checkpoint files", () => {
  it("writes and reads a checkpoint file in Node", async () => {
    const { readCheckpointPath, writeCheckpointPath } = await import("../../src/model/checkpoint_files");
    const os = await import("node:os");
    const path = await import("node:path");
    const fs = await import("node:fs/promises");
    const config = preset("nano");
    const params = initParams(paramLayout(config), () => 0.5);
    const ck = { config, params, tokenizer: "t.json", info: { task: "x" } };
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "ckpt-"));
    const file = path.join(dir, "sub", "m.safetensors");
    await writeCheckpointPath(file, ck);
    const back = await readCheckpointPath(file);
    expect(back.params).toEqual(params);
    await fs.rm(dir, { recursive: true });
  });
});

/**
 * A safetensors file with every tensor as F64 (as other tools may write), `name`'s first value set to `first`.
 * Written here by hand: the lab writes F32 only.
 */
function encodeF64(
  tensors: { name: string; shape: number[]; data: Float32Array }[],
  metadata: Record<string, string>,
  name: string,
  first: number,
): Uint8Array {
  const header: Record<string, unknown> = { __metadata__: metadata };
  let offset = 0;
  for (const t of tensors) {
    header[t.name] = { dtype: "F64", shape: t.shape, data_offsets: [offset, offset + 8 * t.data.length] };
    offset += 8 * t.data.length;
  }
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + json.length + offset);
  const dv = new DataView(out.buffer);
  dv.setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  let at = 8 + json.length;
  for (const t of tensors) {
    for (const [i, v] of t.data.entries())
      dv.setFloat64(at + 8 * i, t.name === name && i === 0 ? first : v, true);
    at += 8 * t.data.length;
  }
  return out;
}
