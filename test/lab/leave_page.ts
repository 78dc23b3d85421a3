/**
 * The lab open over a kept list, and moves through history, for the Back/Forward question's tests
 * (test/lab/history_leave*.test.ts): the stubbed page of ./session_page.ts, plus the open session and the
 * question reset after each test.
 */
import { expect, vi } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { openLabPersistence, type SavedSession } from "../../src/lab/persist";
import { encode } from "../../src/lab/url";
import { useLeaveAsk } from "../../src/ui/lab/history_leave";
import { leaveFor } from "../../src/ui/lab/saving";
import { type LabSession, openLab } from "../../src/ui/lab/session";
import { useLab } from "../../src/ui/lab_store";
import { fakeDeps, newDbName, page, points, setHash, stubPage } from "./session_page";
import { trainedSession } from "./trained_session";

/** The calling file's open session (stopped after each test). */
export const opened: { session: LabSession | null } = { session: null };

/** Stub the page before each test of the calling file; stop its session and drop the question after each. */
export function stubLeavePage(): void {
  stubPage(() => {
    opened.session?.stop();
    opened.session = null;
    useLeaveAsk.setState({ ask: null });
  });
}

/** A session of seed `seed` whose PPO trained `steps` steps (checkpoint there). */
export function trained(seed: number, steps: number): SavedSession {
  const spec = { ...defaultExperiment(), seed };
  return trainedSession(spec, steps, { history: points(steps), bytes: new Uint8Array([seed]) });
}

/**
 * The lab open on seed 0 with PPO at step 10, over a kept list of seeds `kept` (each PPO at its step); returns
 * the stubbed `location.assign` and `history.pushState`.
 */
export async function openOver(kept: [seed: number, steps: number][], seed = 0) {
  const name = newDbName();
  const db = await openLabPersistence(name);
  for (const [i, [s, steps]] of kept.entries()) await db.archive.keep(trained(s, steps), null, 1000 + i);
  const a = { ...defaultExperiment(), seed };
  await db.saveExperiment(a);
  await db.saveRun({ spec: a.runs[0], status: "paused", step: 10, history: points(10), markers: [] });
  await db.saveCheckpoint("ppo-1", new Uint8Array([1]), { step: 10, samples: 80, tokens: 500 });
  db.close();
  setHash(`#${encode(a, useLab.getState().view)}`);
  opened.session = await openLab(fakeDeps(name).deps);
  expect(useLab.getState().runs["ppo-1"].step).toBe(10);
  expect(useLab.getState().saving).not.toBeNull();
  useLab.setState({ notice: null });
  const assign = vi.fn();
  Object.assign(page.loc, { assign });
  const push = vi.spyOn(history, "pushState");
  return { assign, push, here: page.loc.hash };
}

/** Back (or a pasted link) to seed `seed`'s link: the address moves, then the page is told. */
export function back(seed: number): Promise<boolean> {
  setHash(`#${encode({ ...defaultExperiment(), seed })}`);
  return leaveFor(location.href, undefined, true);
}

/** PPO of the open experiment trains on to `step` (as the worker's updates set it). */
export function trainTo(step: number) {
  const r = useLab.getState().runs["ppo-1"];
  useLab.setState({ runs: { ...useLab.getState().runs, "ppo-1": { ...r, step, history: points(step) } } });
}

/** Seed `seed`'s link, as the stubbed page writes it. */
export const seedLink = (seed: number) => `http://lab.test/#${encode({ ...defaultExperiment(), seed })}`;
