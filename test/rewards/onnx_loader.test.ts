import { describe, expect, it } from "vitest";
import {
  loadOnnxRewardModel,
  OnnxRewardModelError,
  type OnnxRewardModelErrorKind,
} from "../../src/rewards/onnx_reward_model";
import { BT, toyModel, V } from "../helpers/toy_rm";

async function expectKind(bytes: Uint8Array, kind: OnnxRewardModelErrorKind, pattern: RegExp) {
  const err = await loadOnnxRewardModel(bytes, V).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `expected an OnnxRewardModelError of kind ${kind}`).toBeInstanceOf(OnnxRewardModelError);
  const e = err as OnnxRewardModelError;
  console.log(`${kind}: ${e.message}`);
  expect(e.kind).toBe(kind);
  expect(e.message).toMatch(pattern);
}

describe("loadOnnxRewardModel: the contract, and a clear error for each kind of wrong file", () => {
  it("a valid toy model loads and scores left-padded rows", async () => {
    const rm = await loadOnnxRewardModel(toyModel(), V);
    // rows [pad, 3, 5] and [11, 11, 11]: scores 0.8 and 3.3
    const s = await rm.run([0, 3, 5, 11, 11, 11], [0, 1, 1, 1, 1, 1], 2, 3);
    expect(Array.from(s, (v) => Math.round(v * 1e4) / 1e4)).toEqual([0.8, 3.3]);
    expect(rm.warnings).toEqual([]);
    await rm.release();
  });

  it("corrupt or non-ONNX bytes → not-onnx", async () => {
    const rng = Array.from({ length: 256 }, (_, i) => (i * 167 + 13) % 256);
    await expectKind(new Uint8Array(rng), "not-onnx", /not an ONNX model|no ONNX graph/);
    await expectKind(
      new TextEncoder().encode('{"model": "not onnx"}'),
      "not-onnx",
      /not an ONNX model|no ONNX graph/,
    );
    await expectKind(new Uint8Array(0), "not-onnx", /no ONNX graph/);
    const good = toyModel();
    await expectKind(
      good.slice(0, Math.floor(good.length / 2)),
      "not-onnx",
      /not an ONNX model|no ONNX graph/,
    );
  });

  it("wrong or missing input names → inputs", async () => {
    await expectKind(toyModel({ idsName: "tokens" }), "inputs", /missing input_ids.*unexpected tokens/);
    await expectKind(toyModel({ maskName: null }), "inputs", /missing attention_mask/);
  });

  it("a crafted input name is quoted short in the message, not whole", async () => {
    const err = await loadOnnxRewardModel(toyModel({ idsName: `IMPORTANT ${"x".repeat(5000)}` }), V).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(OnnxRewardModelError);
    expect((err as Error).message.length).toBeLessThan(300);
  });

  it("int32 input_ids → input-dtype", async () => {
    await expectKind(toyModel({ idsDtype: "int32" }), "input-dtype", /input_ids must be int64.*int32/);
  });

  it("float64 scores → output-dtype; an output not named scores → outputs", async () => {
    await expectKind(toyModel({ outDtype: "double" }), "output-dtype", /float32.*float64/);
    await expectKind(toyModel({ outName: "logits" }), "outputs", /named scores.*logits/);
  });

  it("per-token scores [B, T] → output-shape (declared, or found by the probe when undeclared)", async () => {
    await expectKind(
      toyModel({ perToken: true, outDims: BT }),
      "output-shape",
      /\[B\] or \[B, 1\].*\[batch, sequence\]/,
    );
    await expectKind(toyModel({ perToken: true, outDims: null }), "output-shape", /shape \[2, 4\] for B = 2/);
  });

  it("an embedding smaller than the vocabulary → vocab (initializer rows, or the probe's largest id)", async () => {
    await expectKind(toyModel({ rows: V - 5 }), "vocab", /7 rows but the tokenizer has 12 tokens/);
    await expectKind(
      toyModel({ rows: V - 5, constantTable: true }),
      "vocab",
      /cannot embed token ids up to 11/,
    );
  });

  it("a model that throws at run time → runtime; NaN scores → runtime; an unknown op → session", async () => {
    await expectKind(
      toyModel({ throwsAtRunTime: true }),
      "runtime",
      /probe batch.*failed on a \[2, 4\] batch/,
    );
    await expectKind(toyModel({ nan: true }), "runtime", /non-finite score/);
    await expectKind(toyModel({ unknownOp: true }), "session", /cannot load the model.*NoSuchOp/);
  });

  it("a model with Loop or Scan → ops, before any run (a crafted loop would hang the worker)", async () => {
    await expectKind(toyModel({ controlFlow: "Loop" }), "ops", /uses Loop: control flow/);
    await expectKind(toyModel({ controlFlow: "Scan" }), "ops", /uses Scan/);
  });

  it("a larger embedding loads with a warning; the loader still works after every failure", async () => {
    const rm = await loadOnnxRewardModel(toyModel({ rows: V + 4 }), V);
    expect(rm.warnings.join()).toMatch(/16 rows, more than the tokenizer's 12/);
    expect(Array.from(await rm.run([1, 2], [1, 1], 1, 2))[0]).toBeCloseTo(0.3, 5);
    await rm.release();
  });
});
