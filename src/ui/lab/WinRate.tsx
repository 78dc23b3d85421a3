/**
 * A run's win rate over the start model or another run (AlpacaFarm style): on held-out prompts, the share of
 * prompts where the run's completion scores higher by the gold scorer than the opponent's (ties ½), with its
 * 95 % CI, and a line saying what the CI leaves out (another training seed). The opponent is picked next to the
 * button (the start model by default).
 */
import { useEffect, useState } from "react";
import { useShallow } from "zustand/react/shallow";
import type { RunWinRate } from "../../lab/protocol";
import { useLab } from "../lab_store";
import { labActions } from "./actions";

const pct = (x: number) => `${(100 * x).toFixed(0)} %`;

/**
 * What the interval does not cover, said beside it: it is a normal approximation over these test prompts for these
 * two checkpoints (src/algorithms/win_rate.ts), so "vs PPO β 0.2" is no test between two settings; the spread
 * between training seeds can be wider.
 */
export const CI_SCOPE =
  "This interval covers the test prompts for these checkpoints only; another training seed can differ by more.";

export function WinRate({ runId, disabled }: { runId: string; disabled?: boolean }) {
  const state = useLab((s) => s.winRates[runId]);
  const step = useLab((s) => s.runs[runId]?.step ?? 0);
  // The other runs that have trained (a run at step 0 is the start model again; one imported for comparison has
  // no weights to sample); their specs keep their identity.
  const opponents = useLab(
    useShallow((s) =>
      s.spec.runs.filter((r) => r.id !== runId && !s.runs[r.id]?.comparison && (s.runs[r.id]?.step ?? 0) > 0),
    ),
  );
  const [vs, setVs] = useState<string>("");
  const picked = opponents.find((r) => r.id === vs);
  // An opponent that left (removed, reset) is forgotten: a new run reusing its id is not picked silently.
  useEffect(() => {
    if (vs && !picked) setVs("");
  }, [vs, picked]);
  const vsId = picked ? vs : "";
  const vsLabel = picked?.label ?? "start";
  const measuring = state?.status === "measuring";
  const resultVs = state?.status === "done" ? state.result.vs : null;
  const resultVsLabel =
    resultVs === null ? "the start model" : (opponents.find((r) => r.id === resultVs)?.label ?? resultVs);
  return (
    <div className="win-rate" data-testid={`winrate-${runId}`} data-status={state?.status ?? "none"}>
      <button
        type="button"
        className="link-button"
        disabled={disabled || measuring || step === 0}
        title={
          step === 0
            ? "Train a step first: at step 0 the run is the start model"
            : `Sample held-out prompts with this run and with ${vsId ? vsLabel : "the start model"}; the gold scorer judges each pair`
        }
        data-testid={`winrate-button-${runId}`}
        onClick={() => labActions.winRate(runId, vsId || null)}
      >
        {measuring ? "measuring win rate…" : `Win rate vs ${vsLabel}`}
      </button>
      {opponents.length > 0 && (
        <select
          className="win-rate-vs"
          aria-label="Opponent of the win rate"
          data-testid={`winrate-vs-${runId}`}
          value={vsId}
          disabled={disabled || measuring}
          onChange={(e) => setVs(e.target.value)}
        >
          <option value="">vs start model</option>
          {opponents.map((r) => (
            <option key={r.id} value={r.id}>
              vs {r.label}
            </option>
          ))}
        </select>
      )}
      {state?.status === "done" && (
        <WinRateResult runId={runId} result={state.result} vsLabel={resultVsLabel} />
      )}
      {state?.status === "error" && (
        <span className="run-error" role="alert">
          {state.message}
        </span>
      )}
    </div>
  );
}

/**
 * A measured win rate: the share with its 95 % CI, the won–tied–lost counts, prompts and steps, and under it what
 * the CI covers ({@link CI_SCOPE}; not where every prompt tied and there is no CI). `vsLabel`: the opponent's
 * name ("the start model" or the run's label).
 */
export function WinRateResult({
  runId,
  result,
  vsLabel,
}: {
  runId: string;
  result: RunWinRate;
  vsLabel: string;
}) {
  const allTied = result.ties === result.n;
  return (
    <>
      <span
        className="win-rate-result"
        data-testid={`winrate-result-${runId}`}
        data-win-rate={result.winRate}
        data-ci-low={result.ci95[0]}
        data-ci-high={result.ci95[1]}
        data-n={result.n}
        data-vs={result.vs ?? "start"}
        title={`${result.wins} wins, ${result.ties} ties, ${result.losses} losses against ${vsLabel}${result.vs ? ` (step ${result.vsStep})` : ""} on ${result.n} held-out prompts at step ${result.step}; mean gold ${result.goldRun.toFixed(3)} vs ${result.goldStart.toFixed(3)}`}
      >
        <strong>{pct(result.winRate)}</strong>{" "}
        {allTied ? "[no CI: all tied]" : `[${pct(result.ci95[0])}–${pct(result.ci95[1])}]`}
        {" · "}
        {result.wins}–{result.ties}–{result.losses} won–tied–lost
        {allTied && " (every prompt tied: no evidence either way)"}
        {" · "}
        {result.n} prompts · step {result.step}
        {result.vs !== null && ` vs ${vsLabel} at step ${result.vsStep}`}
      </span>
      {!allTied && (
        <span className="win-rate-scope" data-testid={`winrate-scope-${runId}`}>
          {CI_SCOPE}
        </span>
      )}
    </>
  );
}
