/** How a failed step reads on the run card (src/lab/sched_step.ts), with fake runs. */
import { expect, it } from "vitest";
import { OnnxRewardModelError } from "../../src/rewards/onnx_rm_error";
import { setup, spec } from "./sched_fakes";

it("a custom reward model that fails at run time: its words, retryable like any reward failure", async () => {
  const t = setup();
  await t.s.addRun(spec("a"));
  t.made[0].failAt = 2;
  t.made[0].failWith = new OnnxRewardModelError("timeout", "it computed for over 10 s and was ended");
  await t.s.stepOnce();
  await t.s.stepOnce();
  t.s.flush();
  expect(t.last("a")).toMatchObject({
    status: "error",
    retryable: true,
    error: "step 2 failed: it computed for over 10 s and was ended",
  });
});

it("an error that already names its step is not prefixed with it again", async () => {
  const t = setup();
  await t.s.addRun(spec("a"));
  t.made[0].failAt = 1;
  t.made[0].failWith = new Error("reward is not finite at step 1");
  await t.s.stepOnce();
  t.s.flush();
  expect(t.last("a")?.error).toBe("reward is not finite at step 1");
});

it("a tolerant add (the opening experiment) still rejects on a lost device instead of keeping the run in error", async () => {
  const { Scheduler } = await import("../../src/lab/scheduler");
  const s = new Scheduler({
    factory: {
      create: async () => {
        throw new Error("DEVICE LOST");
      },
      fork: async () => {
        throw new Error("unused");
      },
    },
    onUpdate: () => {},
    isDeviceLoss: (e) => e instanceof Error && e.message === "DEVICE LOST",
  });
  await expect(s.addRun(spec("a"), true)).rejects.toThrow("DEVICE LOST");
  expect(s.runIds).toEqual([]);
  // Any other failure keeps the run, in error, with the reason.
  const t = new Scheduler({
    factory: {
      create: async () => {
        throw new RangeError("beta must be ≥ 0");
      },
      fork: async () => {
        throw new Error("unused");
      },
    },
    onUpdate: () => {},
    isDeviceLoss: () => false,
  });
  await t.addRun(spec("a"), true);
  expect(t.runIds).toEqual(["a"]);
});
