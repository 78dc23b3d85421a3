/**
 * What a run's error says and offers, from the scheduler's side (a reviewer's catalogue of messages): a failed
 * "Back to its last checkpoint" replaces the previous failure instead of growing the error; the device gone for
 * good is marked so the card offers a reload, each card with a short reason and the browser advice once in the
 * notice, a run already in error keeping its own; a run that could not start is marked so (no checkpoint: a change
 * of its settings starts it, going back is refused in words); a GPU error during a step reads in the user's terms (out of memory:
 * a smaller step; validation: an internal error, the driver's text as the detail); a loss whose reason is
 * "unknown" leaves it out; a run without weights says so (no checkpoint or ONNX to export).
 */
import { describe, expect, it } from "vitest";
import {
  GpuDeviceLostError,
  GpuUnavailableError,
  GpuValidationError,
  WEBGPU_HELP,
} from "../../src/gpu/errors";
import { recoverFromLoss } from "../../src/lab/recovery";
import { setup, spec } from "./sched_fakes";

const noRewind = { marker: "", notice: "" };
const failing = (text: string) => async () => {
  throw new Error(text);
};

describe("a run's error", () => {
  it("keeps what happened and only the latest failure to go back", async () => {
    const t = setup();
    await t.s.addRun(spec("a"));
    t.made[0].failAt = 2;
    for (let i = 0; i < 2; i++) await t.s.stepOnce();
    t.s.flush();
    const first = t.last("a")?.error;
    expect(first).toBe("loss became NaN at step 2; the run was stopped");
    for (const why of ["no checkpoint 1", "no checkpoint 2", "no checkpoint 3"]) {
      await expect(t.s.rewindRun("a", failing(why), () => noRewind)).rejects.toThrow(why);
      t.s.flush();
      expect(t.last("a")?.error).toBe(`${first}; going back to its last checkpoint failed: ${why}`);
    }
    // It has no weights now (its old run object is gone): the card turns its checkpoint and ONNX exports off.
    expect(t.last("a")?.noWeights).toBe(true);
  });

  it("the device gone for good: marked so the card offers a reload, a sentence after a sentence", async () => {
    const t = setup({ ms: 1 });
    await t.s.addRun(spec("a"));
    const lost = new GpuDeviceLostError("unknown", "gone");
    const gone = {
      acquire: () => Promise.reject(new Error("no adapter")),
      adopt: () => {},
      restore: failing("-"),
    };
    await recoverFromLoss(t.s, lost, gone, [0]);
    t.s.flush();
    expect(t.last("a")).toMatchObject({
      status: "error",
      errorKind: "device-gone",
      error:
        "The GPU device was lost, and no GPU device could be had again (no adapter). Reload the page to retry.",
    });
    await expect(t.s.rewindRun("a", failing("lost"), () => noRewind)).rejects.toThrow();
    t.s.flush();
    expect(t.last("a")?.error).toMatch(/retry\. Going back to its last checkpoint failed: lost$/);
  });

  it("no device again: a short reason on each card, the browser advice once in the notice, errors kept", async () => {
    const t = setup({ ms: 1 });
    await t.s.addRun(spec("a"));
    await t.s.addRun(spec("b"));
    await t.s.addRun(spec("big", { lr: -1 }), true); // refused before any GPU work
    t.s.flush();
    const refused = t.last("big")?.error;
    const help = `WebGPU is present but no adapter is available. ${WEBGPU_HELP.browser}`;
    const gone = {
      acquire: () => Promise.reject(new GpuUnavailableError("no-adapter", help)),
      adopt: () => {},
      restore: failing("-"),
    };
    await recoverFromLoss(t.s, new GpuDeviceLostError("destroyed", "x"), gone, [0]);
    t.s.flush();
    const short =
      "The GPU device was lost (destroyed), and no GPU device could be had again (no GPU adapter is available now). Reload the page to retry.";
    for (const id of ["a", "b"]) expect(t.last(id)).toMatchObject({ errorKind: "device-gone", error: short });
    // A run already in error keeps its reason; its way out is the reload.
    expect(t.last("big")).toMatchObject({ error: refused, errorKind: "device-gone" });
    const notices = t.all().flatMap((u) => (u.notice ? [u.notice] : []));
    expect(notices).toEqual([
      `Every run stopped: the GPU device was lost (destroyed) and no GPU device could be had again. ${help} Reload the page to retry.`,
    ]);
  });

  it("could not start: no checkpoint to go back to; a change of its settings starts it", async () => {
    const t = setup();
    await t.s.addRun(spec("a", { lr: -1 }), true);
    t.s.flush();
    const u = t.last("a");
    expect(u).toMatchObject({ status: "error", errorKind: "could-not-start", noWeights: true });
    // Going back is refused in words, and the error does not repeat its reason.
    await expect(t.s.rewindRun("a", failing("a.lr must be ≥ 0"), () => noRewind)).rejects.toThrow(
      "A never started: change its settings and it starts again with them",
    );
    t.s.flush();
    expect(t.last("a")?.error).toBe(u?.error);
    // After a Reset that cannot make it, the same kind.
    await t.s.reset();
    t.s.flush();
    expect(t.last("a")).toMatchObject({ status: "error", errorKind: "could-not-start" });
    await t.s.setConfig("a", { lr: 1e-3 });
    t.s.flush();
    expect(t.last("a")).toMatchObject({ status: "ready" });
    expect(t.last("a")?.errorKind).toBeUndefined();
  });

  it("out of GPU memory on a step: the step's size, not the driver's words", async () => {
    const t = setup();
    await t.s.addRun(spec("a"));
    t.made[0].failAt = 1;
    t.made[0].failWith = new GpuValidationError("out-of-memory", "Failed to allocate memory for buffer.");
    await t.s.stepOnce();
    t.s.flush();
    const u = t.last("a");
    expect(u?.errorKind).toBe("gpu-memory");
    expect(u?.error).toBe(
      "step 1 failed: the GPU ran out of memory on this step. Give the run fewer prompts per step, fewer samples per prompt, shorter completions or a smaller model",
    );
    expect(u?.noWeights).toBeUndefined();
  });

  it("a validation error on a step: an internal GPU error, the driver's text kept as the detail", async () => {
    const t = setup();
    await t.s.addRun(spec("a"));
    t.made[0].failAt = 1;
    t.made[0].failWith = new GpuValidationError("validation", "Binding size (64) is smaller than required.");
    await t.s.stepOnce();
    t.s.flush();
    expect(t.last("a")).toMatchObject({
      errorKind: "gpu-internal",
      error:
        "step 1 failed: an internal GPU error stopped it: a bug in the lab, not in the run's settings (the driver said: Binding size (64) is smaller than required.)",
    });
  });
});

describe("the recovery's notice", () => {
  const notice = async (reason: string) => {
    const t = setup({ ms: 1 });
    await t.s.addRun(spec("a"));
    await t.s.stepOnce();
    const restore = async (s: { id: string }) => ({ run: await t.s.runOf(s.id), step: 1 });
    await recoverFromLoss(
      t.s,
      new GpuDeviceLostError(reason, "x"),
      { acquire: async () => ({}) as never, adopt: () => {}, restore: restore as never },
      [0],
    );
    t.s.flush();
    return t.all().find((u) => u.notice)?.notice;
  };
  it("leaves out a reason that says nothing ('unknown') and keeps one that does", async () => {
    expect(await notice("unknown")).toMatch(/^The GPU device was lost and has been re-acquired;/);
    expect(await notice("destroyed")).toMatch(
      /^The GPU device was lost \(destroyed\) and has been re-acquired;/,
    );
  });
});
