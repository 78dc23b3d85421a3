/**
 * The worker's recovery from a lost device (src/lab/recovery.ts) with the scheduler's fakes: a replacement
 * device lost as it arrives is given up for the next try (a reviewer saw the lab stall, its recovery thrown
 * outside any try); no device at all puts every run in error with the reason.
 */
import { describe, expect, it } from "vitest";
import type { GpuContext } from "../../src/gpu/context";
import { GpuDeviceLostError } from "../../src/gpu/errors";
import { recoverFromLoss } from "../../src/lab/recovery";
import { FakeRun, setup, spec } from "./sched_fakes";

const lost = new GpuDeviceLostError("destroyed", "Device was destroyed.");

describe("recoverFromLoss", () => {
  it("a device lost as it arrives: the next one is taken, and every run is rebuilt on it", async () => {
    const t = setup({ ms: 1 });
    for (const id of ["a", "b"]) await t.s.addRun(spec(id));
    await t.s.stepOnce();
    const devices = [{ id: 1 }, { id: 2 }] as unknown as GpuContext[];
    const adopted: unknown[] = [];
    await recoverFromLoss(
      t.s,
      lost,
      {
        acquire: async () => devices.shift() as GpuContext,
        adopt: (ctx) => {
          if ((ctx as unknown as { id: number }).id === 1) throw lost; // lost at birth
          adopted.push(ctx);
        },
        restore: async (s) => ({ run: new FakeRun(s.id, s.config, t.log), step: 0 }),
      },
      [0, 0, 0],
    );
    expect(adopted).toEqual([{ id: 2 }]);
    t.s.flush();
    expect(t.last("a")?.status).not.toBe("error");
    expect(t.last("a")?.markers?.[0]?.label).toBe("GPU lost: resumed from step 0");
    expect(t.s.isHalted).toBe(false);
  });

  it("no device to be had: every run is in error, saying to reload", async () => {
    const t = setup({ ms: 1 });
    await t.s.addRun(spec("a"));
    await recoverFromLoss(
      t.s,
      lost,
      {
        acquire: () => Promise.reject(new Error("no adapter")),
        adopt: () => {},
        restore: async () => {
          throw new Error("not called");
        },
      },
      [0, 0],
    );
    t.s.flush();
    expect(t.last("a")).toMatchObject({ status: "error" });
    expect(t.last("a")?.error).toMatch(/no GPU device could be had again \(no adapter\)\. Reload the page/);
    // Nothing is recovering any more: a run added after reads "ready", not "recovering…" for ever (a reviewer).
    expect(t.s.isHalted).toBe(false);
    await t.s.addRun(spec("b"));
    t.s.flush();
    expect(t.last("b")?.status).toBe("ready");
  });

  it("the runs read 'recovering' while a device is asked for (they said 'running'), then go on as before", async () => {
    const t = setup({ ms: 1 });
    await t.s.addRun(spec("a"));
    await t.s.stepOnce();
    let give: (ctx: GpuContext) => void = () => {};
    const done = recoverFromLoss(
      t.s,
      lost,
      {
        acquire: () => new Promise<GpuContext>((r) => (give = r)),
        adopt: () => {},
        restore: async (s) => ({ run: new FakeRun(s.id, s.config, t.log), step: 1 }),
      },
      [0],
    );
    t.s.flush();
    expect(t.last("a")?.status).toBe("recovering");
    await new Promise((r) => setTimeout(r, 5));
    give({} as GpuContext);
    await done;
    t.s.flush();
    expect(t.last("a")?.status).toBe("paused");
  });
});
