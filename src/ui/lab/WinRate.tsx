/**
 * A run's win rate over the start model or another run (AlpacaFarm style): on held-out prompts, the share of
 * prompts where the run's completion scores higher by the gold scorer than the opponent's (ties ½), with its
 * 95 % CI. The opponent is picked next to the button (the start model by default).
 */
import { useEffect, useState } from "react";
import { useShallow } from "zustand/react/shallow";
import { useLab } from "../lab_store";
import { labActions } from "./actions";

const pct = (x: number) => `${(100 * x).toFixed(0)} %`;

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
        <span
          className="win-rate-result"
          data-testid={`winrate-result-${runId}`}
          data-win-rate={state.result.winRate}
          data-ci-low={state.result.ci95[0]}
          data-ci-high={state.result.ci95[1]}
          data-n={state.result.n}
          data-vs={state.result.vs ?? "start"}
          title={`${state.result.wins} wins, ${state.result.ties} ties, ${state.result.losses} losses against ${resultVsLabel}${state.result.vs ? ` (step ${state.result.vsStep})` : ""} on ${state.result.n} held-out prompts at step ${state.result.step}; mean gold ${state.result.goldRun.toFixed(3)} vs ${state.result.goldStart.toFixed(3)}`}
        >
          <strong>{pct(state.result.winRate)}</strong>{" "}
          {state.result.ties === state.result.n
            ? "[no CI: all tied]"
            : `[${pct(state.result.ci95[0])}–${pct(state.result.ci95[1])}]`}
          {" · "}
          {state.result.wins}–{state.result.ties}–{state.result.losses} won–tied–lost
          {state.result.ties === state.result.n && " (every prompt tied: no evidence either way)"}
          {" · "}
          {state.result.n} prompts · step {state.result.step}
          {state.result.vs !== null && ` vs ${resultVsLabel} at step ${state.result.vsStep}`}
        </span>
      )}
      {state?.status === "error" && (
        <span className="run-error" role="alert">
          {state.message}
        </span>
      )}
    </div>
  );
}
