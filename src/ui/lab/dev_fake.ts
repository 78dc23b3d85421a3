/**
 * DEVELOPMENT ONLY: a stand-in for the training worker that pushes synthetic RunUpdates into the store, so the
 * UI can be built and looked at without a GPU. Loaded only by `npm run dev` with `?fake` in the URL
 * (actions.ts checks import.meta.env.DEV, so production builds drop it); its numbers are made up.
 */
import type {
  MetricPoint,
  RunCounters,
  RunSpec,
  RunUpdate,
  SampleView,
  SettingValue,
  TokenView,
} from "../../lab/protocol";
import { ALGORITHMS } from "../../lab/registry";
import { formatSetting } from "../../lab/run_slot";
import { Rng } from "../../util/rng";
import { useLab } from "../lab_store";
import type { LabBackend } from "./actions";
import { fakeInspect } from "./dev_fake_inspect";

/** The fake's per-run progress. */
interface FakeRun {
  step: number;
  samples: number;
  tokens: number;
  pendingMarkers: { step: number; label: string }[];
}

const WORDS = "the sea was calm and bright and the whale rose slowly under a grey sky".split(" ");

function fakePoint(spec: RunSpec, f: FakeRun, r: () => number): MetricPoint {
  const t = f.step;
  const beta = Number(spec.config.beta ?? 0.05);
  const kl = (0.02 * t) / (1 + beta * 4) + 0.02 * (r() - 0.5);
  const reward = Math.tanh(t / 40) * 0.6 - 0.1 + 0.08 * (r() - 0.5);
  const m: Record<string, number> = {
    reward,
    reward_gold: reward - 0.002 * t + 0.05 * (r() - 0.5),
    "objective/kl": kl,
    "objective/kl_k2": kl * 0.9,
    "objective/kl_k3": Math.abs(kl) * 1.05,
    "objective/kl_exact": Math.abs(kl) * 0.95 + 0.005,
    entropy: 2.2 * Math.exp(-t / 120) + 0.05 * r(),
    "completions/mean_length": 16 + 4 * r(),
    "completions/clipped_ratio": 0.25 * r(),
    grad_norm: 0.5 + r(),
    "tokens/s": 900 + 200 * r(),
    kl_coef: beta,
  };
  if (spec.algo === "ppo") {
    m["policy/clipfrac_avg"] = 0.1 * r();
    m["loss/value_avg"] = 0.2 * Math.exp(-t / 50) + 0.02 * r();
    m["val/clipfrac_avg"] = 0.05 * r();
  }
  if (spec.algo === "grpo") {
    m["clip_ratio/region_mean"] = 0.03 * r();
    m.frac_reward_zero_std = 0.2 * r();
    m["completions/distinct_frac"] = 0.125 + 0.875 * Math.exp(-t / 80) * (0.9 + 0.1 * r());
  }
  if (spec.algo === "dpo") {
    m["rewards/margins"] = 0.02 * t;
    m["rewards/accuracies"] = Math.min(1, 0.5 + 0.01 * t);
    m["logps/chosen"] = -12 - 0.05 * t + r();
    m["logps/rejected"] = -12 - 0.08 * t + r();
  }
  return { step: t, samples: f.samples, tokens: f.tokens, metrics: m };
}

function fakeSamples(spec: RunSpec, r: () => number): SampleView[] {
  return Array.from({ length: 6 }, () => {
    const words = Array.from(
      { length: 3 + Math.floor(r() * 4) },
      () => WORDS[Math.floor(r() * WORDS.length)],
    );
    const completion: TokenView[] = [...` ${words.join(" ")}.`].map((ch) => {
      const logp = -3 * r();
      return {
        text: ch,
        logp,
        prob: Math.exp(logp),
        advantage: spec.algo === "dpo" ? null : 2 * (r() - 0.5),
        ratio: spec.algo === "dpo" ? null : 1 + 0.3 * (r() - 0.5),
        kl: 0.2 * (r() - 0.4),
        entropy: 2 * r(),
      };
    });
    const dpo = spec.algo === "dpo";
    completion.push({
      text: "<eos>",
      logp: -0.1,
      prob: 0.9,
      advantage: dpo ? null : 0.1,
      ratio: dpo ? null : 1,
      kl: 0,
      entropy: 0.3,
    });
    return { prompt: "Call me Ishmael. ", completion, reward: r() * 2 - 1, gold: r() * 2 - 1 };
  });
}

/**
 * A fake backend that trains nothing: synthetic metrics at ~4 updates/s while playing (`?fake=MS`: one update
 * every MS ms instead, e.g. `?fake=20` to grow long histories quickly when measuring the charts).
 */
export function createFakeBackend(): LabBackend {
  const runs = new Map<string, FakeRun>();
  const rng = new Rng(7);
  const r = () => rng.float();
  let timer: ReturnType<typeof setInterval> | null = null;
  const lab = () => useLab.getState();
  const fakeRun = (id: string) => {
    let f = runs.get(id);
    if (!f) runs.set(id, (f = { step: 0, samples: 0, tokens: 0, pendingMarkers: [] }));
    return f;
  };
  const stepAll = (status: "running" | "paused") => {
    const updates: RunUpdate[] = [];
    const stopAt = lab().spec.steps ?? 0;
    for (const spec of lab().spec.runs) {
      // Runs imported for comparison are curves only; a run at Stop at waits for the others.
      if (lab().runs[spec.id]?.comparison) continue;
      const f = fakeRun(spec.id);
      if (stopAt > 0 && f.step >= stopAt) continue;
      f.step++;
      const batch = Number(spec.config.batchPrompts ?? 8);
      f.samples += batch;
      f.tokens += batch * 18;
      const markers = f.pendingMarkers.map((m) => ({ runId: spec.id, ...m }));
      f.pendingMarkers = [];
      updates.push({
        runId: spec.id,
        status,
        step: f.step,
        points: [fakePoint(spec, f, r)],
        samples: f.step % 2 ? fakeSamples(spec, r) : undefined,
        inspect: fakeInspect(spec, f.step, r, WORDS),
        markers,
      });
    }
    lab().applyUpdates(updates);
    // Stop at: the lab pauses once every run got there, as the worker's scheduler does.
    if (status === "running" && !updates.length) backend.pause();
  };
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };
  const backend: LabBackend = {
    async start(spec) {
      lab().setSpec(spec);
      lab().setModel(`${spec.model} (FAKE synthetic metrics, dev only)`);
      lab().setPhase("ready");
    },
    play() {
      stop();
      lab().setPlaying(true);
      const ms = Number(new URLSearchParams(location.search).get("fake"));
      timer = setInterval(() => stepAll("running"), ms >= 1 ? ms : 250);
    },
    pause() {
      stop();
      lab().setPlaying(false);
      lab().applyUpdates(
        lab()
          .spec.runs.filter((s) => !lab().runs[s.id]?.comparison)
          .map((s) => ({ runId: s.id, status: "paused", step: fakeRun(s.id).step, points: [] })),
      );
    },
    async stepOnce() {
      stepAll("paused");
    },
    async reset() {
      stop();
      runs.clear();
      lab().setPlaying(false);
      lab().clearProgress();
    },
    setSpeed(speed) {
      lab().setSpeed(speed);
    },
    setStopAt(steps) {
      lab().setStopAt(steps);
    },
    async addRun(spec) {
      lab().upsertRun(spec);
    },
    removeRun(id) {
      runs.delete(id);
      lab().removeRun(id);
    },
    renameRun(id, label) {
      lab().setRunLabel(id, label);
    },
    async forkRun(id, spec) {
      const src = runs.get(id);
      lab().upsertRun(spec);
      const from = lab().runs[id];
      if (src) runs.set(spec.id, { ...src, pendingMarkers: [] });
      if (from) lab().restoreRuns([{ ...from, spec, markers: [], status: "paused" }]);
    },
    async setConfig(id, patch: Record<string, SettingValue>) {
      const run = lab().runs[id];
      if (!run) return;
      const fields = ALGORITHMS[run.spec.algo].fields;
      const f = fakeRun(id);
      if (f.step > 0) {
        const label = Object.entries(patch)
          .map(([k, v]) => {
            const field = fields.find((x) => x.key === k);
            return `${field?.label ?? k} ${formatSetting(run.spec.config[k] ?? field?.default)} → ${formatSetting(v)}`;
          })
          .join(", ");
        f.pendingMarkers.push({ step: f.step + 1, label });
      }
      lab().setRunConfig(id, patch);
    },
    async exportCheckpoint() {
      return new Uint8Array();
    },
    // A reload resumes a fake run at its checkpoint's step, as the worker does (its "weights" are its counters).
    async loadRunCheckpoint(id: string, _bytes: Uint8Array, at: RunCounters) {
      Object.assign(fakeRun(id), at);
      lab().applyUpdates([{ runId: id, status: "paused", step: at.step, points: [] }]);
      return null;
    },
  };
  return backend;
}
