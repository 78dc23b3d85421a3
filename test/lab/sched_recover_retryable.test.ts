/**
 * A run in a retryable error (a reward model failed) whose weights are then lost — its restore after a lost
 * device fails, or the device is gone for good (failAll) — is no longer offered "Try the step again" (it once
 * kept `retryable`, and the card offered a retry "as it was" on weights that were gone).
 */
import { expect, it } from "vitest";
import { RewardSourceError } from "../../src/lab/reward_sources";
import { setup, spec, until } from "./sched_fakes";

it("a run that could not be restored after a lost device is not offered 'Try the step again'", async () => {
  const t = setup();
  await t.s.addRun(spec("a"));
  await t.s.addRun(spec("b"));
  const [a, b] = t.made;
  a.failAt = 2;
  a.failWith = new RewardSourceError("the custom reward model was stopped");
  await t.s.stepOnce();
  await t.s.stepOnce(); // a: retryable error at step 2; b at step 2
  t.s.flush();
  expect(t.last("a")).toMatchObject({ status: "error", retryable: true });
  b.lost = true;
  t.s.play();
  await until(() => t.s.isHalted);
  t.s.pause();
  await t.s.recover(
    async (sp) => {
      throw new Error(`no checkpoint for ${sp.id}`);
    },
    () => ({ marker: "m", notice: "n" }),
  );
  t.s.flush();
  const u = t.last("a");
  expect(u?.error).toMatch(/could not be restored/);
  // Its weights are gone: the card must offer "Back to its last checkpoint", not "Try the step again"
  // (whose tooltip says "the run is as it was").
  expect(u?.retryable).toBeUndefined();
});

it("runs failed together when no device can be had again are not offered 'Try the step again'", async () => {
  const t = setup();
  await t.s.addRun(spec("a"));
  t.made[0].failAt = 1;
  t.made[0].failWith = new RewardSourceError("the custom reward model was stopped");
  await t.s.stepOnce();
  t.s.flush();
  expect(t.last("a")).toMatchObject({ status: "error", retryable: true });
  const before = t.last("a")?.error;
  t.s.failAll("the GPU device was lost; no GPU device could be had again");
  t.s.flush();
  // Its reason stays; its way out is the reload (no device to try the step on).
  expect(t.last("a")).toMatchObject({ error: before, errorKind: "device-gone" });
  expect(t.last("a")?.retryable).toBeUndefined();
});
