import { describe, expect, it } from "vitest";
import { loadCheckpoint, saveCheckpoint } from "../../src/model/checkpoint";
import { preset } from "../../src/model/config";
import { initParams, paramLayout, spec } from "../../src/model/params";
import { decodeSafetensors, encodeSafetensors, SafetensorsError } from "../../src/model/safetensors";
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
