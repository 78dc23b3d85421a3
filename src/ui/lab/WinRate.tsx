/**
 * A run's win rate over the start model (AlpacaFarm style): on held-out prompts, the share of prompts where the
 * run's completion scores higher by the gold scorer than the start model's (ties ½), with its 95 % CI.
 */
import { useLab } from "../lab_store";
import { labActions } from "./actions";

const pct = (x: number) => `${(100 * x).toFixed(0)} %`;

export function WinRate({ runId, disabled }: { runId: string; disabled?: boolean }) {
  const state = useLab((s) => s.winRates[runId]);
  const step = useLab((s) => s.runs[runId]?.step ?? 0);
  const measuring = state?.status === "measuring";
  return (
    <div className="win-rate" data-testid={`winrate-${runId}`} data-status={state?.status ?? "none"}>
      <button
        type="button"
        className="link-button"
        disabled={disabled || measuring || step === 0}
        title={
          step === 0
            ? "Train a step first: at step 0 the run is the start model"
            : "Sample held-out prompts with this run and with the start model; the gold scorer judges each pair"
        }
        data-testid={`winrate-button-${runId}`}
        onClick={() => labActions.winRate(runId)}
      >
        {measuring ? "measuring win rate…" : "Win rate vs start"}
      </button>
      {state?.status === "done" && (
        <span
          className="win-rate-result"
          data-testid={`winrate-result-${runId}`}
          data-win-rate={state.result.winRate}
          data-ci-low={state.result.ci95[0]}
          data-ci-high={state.result.ci95[1]}
          data-n={state.result.n}
          title={`${state.result.wins} wins, ${state.result.ties} ties, ${state.result.losses} losses on ${state.result.n} held-out prompts at step ${state.result.step}; mean gold ${state.result.goldRun.toFixed(3)} vs ${state.result.goldStart.toFixed(3)}`}
        >
          <strong>{pct(state.result.winRate)}</strong> [{pct(state.result.ci95[0])}–
          {pct(state.result.ci95[1])}]{" · "}
          {state.result.wins}–{state.result.ties}–{state.result.losses} won–tied–lost
          {state.result.ties === state.result.n && " (every prompt tied: no evidence either way)"}
          {" · "}
          {state.result.n} prompts · step {state.result.step}
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
