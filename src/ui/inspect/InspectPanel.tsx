/**
 * "Inspect": the latest step of one run, taken apart, while the lab is paused (after Pause or Step). PPO and
 * REINFORCE: a token table (ratio, advantage, clipping, KL; for PPO also how Â was made: r, V, δ, A); GRPO, Safe RLHF and RLOO: one prompt's group of
 * completions, scores and advantages; DPO: chosen/rejected pairs with implicit rewards, margin and loss. The
 * numbers come from the worker (src/lab/inspect/), computed with the algorithms' own math.
 */
import { useState } from "react";
import "./inspect.css";
import type { InspectView } from "../../lab/protocol";
import { runLooks } from "../lab/palette";
import { RunSwatch } from "../lab/RunSwatch";
import { useLab } from "../lab_store";
import { emptyHint } from "./empty_hint";
import { type GroupColumns, GroupTable } from "./GroupTable";
import { PairTable } from "./PairTable";
import { type TokenColumns, TokenTable } from "./TokenTable";

/** What each kind of view shows, for the panel's subtitle. */
const KIND_TITLE: Record<InspectView["kind"], string> = {
  tokens: "Token table",
  groups: "Group advantages",
  pairs: "Preference pairs",
  none: "Nothing to inspect",
};

export function InspectPanel() {
  const playing = useLab((s) => s.playing);
  const specs = useLab((s) => s.spec.runs);
  // While playing, select nothing that changes with every update (no re-render per update).
  const runs = useLab((s) => (s.playing ? null : s.runs));
  const [chosen, setChosen] = useState<string | null>(null);
  // The token table's columns, kept across steps and runs (the body remounts with each step).
  const [columns, setColumns] = useState<TokenColumns>("ratio");
  const [groupColumns, setGroupColumns] = useState<GroupColumns>("advantages");
  const looks = runLooks(specs);
  const withData = runs ? specs.filter((r) => runs[r.id]?.inspect) : [];
  const id = withData.some((r) => r.id === chosen) ? chosen : (withData[0]?.id ?? null);
  const view = id && runs ? runs[id]?.inspect : undefined;
  const label = specs.find((r) => r.id === id)?.label ?? "";
  return (
    <section className="inspect" aria-labelledby="inspect-title" data-testid="inspect" data-keeps-space="">
      <div className="section-head">
        <h2 id="inspect-title" className="section-title">
          Inspect
        </h2>
        {withData.length > 0 && (
          // biome-ignore lint/a11y/useSemanticElements: a row of toggle buttons, named for the group; no form here
          <div className="inspect-runs" role="group" aria-label="Run to inspect">
            {withData.map((r) => (
              <button
                key={r.id}
                type="button"
                className="legend-item"
                aria-pressed={r.id === id}
                data-testid={`inspect-run-${r.id}`}
                onClick={() => setChosen(r.id)}
              >
                <RunSwatch look={looks[r.id]} />
                {r.label}
              </button>
            ))}
          </div>
        )}
        {view && (
          <span className="muted inspect-subtitle" data-testid="inspect-subtitle">
            {KIND_TITLE[view.kind]} · {label} · step {view.step}
          </span>
        )}
      </div>
      {playing ? (
        <p className="muted" data-testid="inspect-hint">
          Pause (or press Step) to inspect the latest step of a run: PPO's per-token ratios and clipping,
          GRPO's group advantages, DPO's implicit rewards.
        </p>
      ) : !view ? (
        <p className="muted" data-testid="inspect-hint">
          {emptyHint(runs)}
        </p>
      ) : (
        <InspectBody
          key={`${id}-${view.step}`}
          view={view}
          columns={columns}
          onColumns={setColumns}
          groupColumns={groupColumns}
          onGroupColumns={setGroupColumns}
        />
      )}
    </section>
  );
}

function InspectBody({
  view,
  columns,
  onColumns,
  groupColumns,
  onGroupColumns,
}: {
  view: InspectView;
  columns: TokenColumns;
  onColumns: (c: TokenColumns) => void;
  groupColumns: GroupColumns;
  onGroupColumns: (c: GroupColumns) => void;
}) {
  switch (view.kind) {
    case "tokens":
      return <TokenTable view={view} columns={columns} onColumns={onColumns} />;
    case "groups":
      return <GroupTable view={view} columns={groupColumns} onColumns={onGroupColumns} />;
    case "pairs":
      return <PairTable view={view} />;
    case "none":
      return (
        <p className="muted" data-testid="inspect-none">
          {view.reason}
        </p>
      );
  }
}
