/**
 * A run's win rate (the page's "Win rate vs start", or vs another run): its samples and the opponent's on the
 * same held-out prompts, judged by the task's gold scorer (./evaluate.ts compareWeights), between steps.
 */
import type { GpuContext } from "../gpu/context";
import { compareWeights } from "./evaluate";
import type { RunWinRate } from "./protocol";
import type { LabRun, LabRuns } from "./runs";
import type { Scheduler } from "./scheduler";

/**
 * Run `runId`'s win rate over `prompts` held-out prompts against the start model (`vs` null) or run `vs`, one
 * sample each at τ = 1 (sampler seed `seed` + 1) of at most the run's max tokens (the task's default for a run
 * without that setting), as soon as no step is on the device, on the device `ctx()` gives then (a recovery from a
 * lost device may have replaced the one there was when this was asked).
 * @throws RangeError for an unknown run or opponent, or `vs` = `runId` (½ by definition).
 */
export function runWinRate(
  ctx: () => GpuContext,
  runs: LabRuns,
  sched: Scheduler,
  seed: number,
  runId: string,
  prompts: number,
  vs: string | null,
): Promise<RunWinRate> {
  const { task, tokenizer } = runs.res;
  return sched.withRun(runId, async (run) => {
    const lab = run as LabRun;
    // Between steps (withRun is exclusive), so the opponent run's weights are not changing either.
    const other = vs === null ? null : (sched.runOf(vs) as LabRun | null);
    if (vs !== null && !other) throw new RangeError(`no run "${vs}" to compare with`);
    if (vs === runId)
      throw new RangeError("a run's win rate over itself is ½ by definition; pick another run");
    const opponent = other ? other.env.policy : runs.startWeights();
    // Completions as long as the run samples in training (its max tokens), for both sides.
    const limit = lab.config.maxNewTokens;
    const c = await compareWeights(ctx(), task, tokenizer, lab.env.policy, opponent, {
      prompts,
      samples: 1,
      temperature: 1,
      seed: seed + 1,
      maxNewTokens: typeof limit === "number" ? limit : undefined,
    });
    const mean = (x: Record<string, number>) => x.gold_mean ?? Number.NaN;
    return {
      runId,
      step: lab.run.stepsDone,
      vs,
      vsStep: other ? other.run.stepsDone : 0,
      winRate: c.winRate,
      ci95: c.ci95,
      n: c.n,
      wins: c.wins,
      ties: c.ties,
      losses: c.losses,
      goldRun: mean(c.metricsA),
      goldStart: mean(c.metricsB),
    };
  });
}
