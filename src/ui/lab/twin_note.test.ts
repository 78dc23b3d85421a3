/**
 * A fork with its source's weights, step and settings trains exactly as the source does (same prompts, same
 * sampler seeds): its card says so until a setting differs or a change was recorded after the fork step.
 */
import { describe, expect, it } from "vitest";
import { DEVICE_LOST_MARKER, type RunSpec } from "../../lab/protocol";
import { twinNote } from "./run_specs";

const source: RunSpec = { id: "ppo-1", algo: "ppo", label: "PPO", config: { beta: 0.1 } };
const fork: RunSpec = { ...source, id: "ppo-2", label: "PPO (fork @ 3)", forkOf: { id: "ppo-1", step: 3 } };
const at = (
  spec: RunSpec,
  markers: (number | { step: number; label: string })[] = [],
  extra: { status?: string; resumedAt?: number } = {},
) => ({
  spec,
  status: "paused",
  markers: markers.map((m) => (typeof m === "number" ? { step: m, label: "β 0.1 → 0.2" } : m)),
  ...extra,
});

describe("a fork's twin note", () => {
  it("shows while the fork and its source would compute the same numbers", () => {
    expect(twinNote(at(fork), at(source, [2]))).toMatch(
      /^Same weights, settings, prompts and random draws as PPO from step 3/,
    );
  });

  it("goes once a setting differs, a change was recorded after the fork, or it is no fork of that run", () => {
    expect(twinNote(at({ ...fork, config: { beta: 0.2 } }), at(source))).toBeNull();
    expect(twinNote(at(fork), at({ ...source, config: {} }))).toBeNull();
    // Changed and changed back: the runs went apart at the change.
    expect(twinNote(at(fork, [4]), at(source))).toBeNull();
    expect(twinNote(at(fork), at(source, [5]))).toBeNull();
    expect(twinNote(at(fork), undefined)).toBeNull();
    expect(twinNote(at({ ...fork, forkOf: undefined }), at(source))).toBeNull();
    // The source stopped in error: it steps no more.
    expect(twinNote(at(fork), at(source, [], { status: "error" }))).toBeNull();
    // A lost GPU device rebuilt them from checkpoints at the fork step: apart (a settings marker there is not).
    const lost = { step: 3, label: `${DEVICE_LOST_MARKER}: resumed from step 3` };
    expect(twinNote(at(fork, [lost]), at(source))).toBeNull();
    expect(twinNote(at(fork), at(source, [lost]))).toBeNull();
    expect(twinNote(at(fork, [3]), at(source, [{ ...lost, step: 2 }]))).not.toBeNull();
  });

  it("after a reload, holds only if both resumed at the same step or the fork was made after the resume", () => {
    // Resumed at 8 and 9 (the optimizer's moments start over at each one's own step): apart.
    expect(twinNote(at(fork, [], { resumedAt: 8 }), at(source, [], { resumedAt: 9 }))).toBeNull();
    expect(twinNote(at(fork, [], { resumedAt: 9 }), at(source, [], { resumedAt: 9 }))).not.toBeNull();
    // The source resumed at 3 and was forked right then (the fork took its optimizer's state as it was).
    expect(twinNote(at(fork), at(source, [], { resumedAt: 3 }))).not.toBeNull();
    expect(twinNote(at(fork), at(source, [], { resumedAt: 2 }))).not.toBeNull();
    expect(twinNote(at(fork), at({ ...source, id: "ppo-9" }))).toBeNull();
  });
});
