/**
 * The group view of GRPO-style runs (spec "GRPO and its variants"; "RLOO and REINFORCE"): one prompt's G
 * completions → scores → the group's mean and sample std → advantages. GRPO: A_i under all three
 * scale_rewards (group: ÷ (σ_group + ε_std), batch: ÷ (σ_batch + ε_std), none: Dr. GRPO), the run's own highlighted;
 * RLOO: the leave-one-out baseline and A_i = s_i − baseline. A group whose scores are all equal is flagged.
 */
import type { GroupsInspect } from "../../lab/inspect/types";
import { sig } from "../lab/numbers";
import { ColumnToggle, Head, Num } from "./cells";
import { LossWeightsTable } from "./LossWeightsTable";
import { Chooser } from "./Pager";
import { countOf, useChoice } from "./paging";

const SCALES = ["group", "batch", "none"] as const;

/** Which columns the group view shows: the advantages under each scaling, or the loss-type weights. */
export type GroupColumns = "advantages" | "weights";

export function GroupTable({
  view,
  columns,
  onColumns,
}: {
  view: GroupsInspect;
  columns: GroupColumns;
  onColumns: (c: GroupColumns) => void;
}) {
  const [index, setIndex] = useChoice(view.groups.length);
  const g = view.groups[index];
  if (!g) return <p className="muted">This step has no groups.</p>;
  const grpo = view.rule === "grpo";
  const s = view.scoreFormula ? "sᵢ" : "Rᵢ";
  const scaleHead = {
    group: {
      sub: `(${s} − mean)/(σ + ε_std)`,
      title: "scale_rewards = group: divided by the group's sample std + ε_std",
    },
    batch: {
      sub: `(${s} − mean)/(σ_batch + ε_std)`,
      title: "scale_rewards = batch: divided by the whole batch's sample std + ε_std",
    },
    none: { sub: `${s} − mean`, title: "scale_rewards = none (Dr. GRPO): no division" },
  };
  return (
    <div className="inspect-body" data-testid="inspect-groups" data-g={view.G}>
      <div className="inspect-toolbar">
        <Chooser
          label="Prompt"
          what="prompt"
          testId="inspect-group"
          index={index}
          onChange={setIndex}
          options={view.groups.map(
            (x, i) =>
              `#${i + 1} · ${x.prompt} · mean ${sig(x.mean, 3)}${x.zeroStd ? " · zero reward std" : ""}`,
          )}
        />
        <span className="muted">
          {index + 1} of {countOf(view.groups.length, view.totalGroups, "prompt")} × G = {view.G} ·{" "}
          {view.groups.filter((x) => x.zeroStd).length}
          {view.groups.length < view.totalGroups ? " of those" : ""} with zero reward std
        </span>
        {view.loss && (
          <ColumnToggle
            testId="group-columns"
            value={columns}
            onChange={onColumns}
            options={[
              {
                value: "advantages",
                label: "Advantages",
                title: "Scores → group mean and std → advantages under each scale_rewards",
              },
              {
                value: "weights",
                label: "Loss weights",
                title:
                  "How each loss_type weighs the completions' tokens: where GRPO's length bias comes from",
              },
            ]}
          />
        )}
      </div>
      <dl className="inspect-stats" data-testid="group-stats">
        <div>
          <dt>mean {s}</dt>
          <dd className="mono" data-col="mean" data-value={g.mean}>
            {sig(g.mean, 3)}
          </dd>
        </div>
        <div title={`Sample standard deviation of the group's ${s} (divisor G − 1), as TRL / torch.std`}>
          <dt>σ of {s} (group, sample)</dt>
          <dd className="mono" data-col="std" data-value={g.std}>
            {sig(g.std, 3)}
          </dd>
        </div>
        {grpo && (
          <div title="Sample std of every score in the batch">
            <dt>σ_batch</dt>
            <dd className="mono" data-col="batch-std" data-value={view.batchStd}>
              {sig(view.batchStd, 3)}
            </dd>
          </div>
        )}
        {grpo && (
          <div title="The small constant added to the std so that a zero-std group does not divide by 0 (TRL's 1e-4); not the clip range ε">
            <dt>ε_std</dt>
            <dd className="mono" data-col="eps" data-value={view.eps}>
              {sig(view.eps, 3)}
            </dd>
          </div>
        )}
        {view.scoreFormula && (
          <div>
            <dt>score</dt>
            <dd>
              <span className="mono">sᵢ = {view.scoreFormula}</span>
              {view.scoreNote && <span className="muted"> · {view.scoreNote}</span>}
            </dd>
          </div>
        )}
        <div>
          <dt>zero reward std</dt>
          <dd data-testid="zero-std" data-value={g.zeroStd ? "yes" : "no"}>
            {g.zeroStd && g.std > 0 ? (
              <span
                className="badge badge-warn"
                title="All rewards equal (frac_reward_zero_std counts this group): its advantages come only from the penalty in the scores, not from the reward"
              >
                yes · no reward signal: the advantages are the penalty's
              </span>
            ) : g.zeroStd ? (
              <span
                className="badge badge-warn"
                title="All rewards equal: zero advantages, so this group gives the policy no reward signal (a KL penalty, β > 0, or an entropy bonus still acts on its completions)"
              >
                yes · no reward signal
              </span>
            ) : (
              <span className="muted">no</span>
            )}
          </dd>
        </div>
      </dl>
      {columns === "weights" && view.loss ? (
        <LossWeightsTable view={view} loss={view.loss} group={g} />
      ) : (
        <>
          <div className="table-scroll">
            <table className="results inspect-table" data-testid="group-table">
              <caption className="visually-hidden">
                The group's completions, their scores and advantages
              </caption>
              <thead>
                <tr>
                  <Head symbol="i" title="Completion of this prompt" />
                  <Head
                    symbol="completion"
                    num={false}
                    title="The sampled completion (special tokens as they are)"
                  />
                  <Head symbol="Rᵢ" sub="reward" title="The run's reward of the completion" />
                  {view.scoreFormula && (
                    <Head symbol="sᵢ" sub={view.scoreFormula} title="The score the advantage uses" />
                  )}
                  {grpo &&
                    SCALES.map((m) => (
                      <Head
                        key={m}
                        symbol={
                          <>
                            Aᵢ {m}
                            {view.scaleRewards === m && <span className="inspect-own">this run</span>}
                          </>
                        }
                        sub={scaleHead[m].sub}
                        title={scaleHead[m].title}
                        className={view.scaleRewards === m ? "is-own" : undefined}
                      />
                    ))}
                  {!grpo && (
                    <Head
                      symbol="bᵢ"
                      sub="mean of the others"
                      title="Leave-one-out baseline (1/(G−1)) Σ_{j≠i} s_j"
                    />
                  )}
                  {!grpo && <Head symbol="Aᵢ" sub="sᵢ − bᵢ" title="RLOO advantage" className="is-own" />}
                </tr>
              </thead>
              <tbody>
                {g.rows.map((r, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows are replaced wholesale each step
                  <tr key={i} data-testid="group-row">
                    <td className="num muted">{i + 1}</td>
                    <td className="mono inspect-completion">{r.completion}</td>
                    <Num col="reward" value={r.reward} />
                    {view.scoreFormula && <Num col="score" value={r.score} />}
                    {grpo &&
                      SCALES.map((m) => (
                        <Num
                          key={m}
                          col={`adv-${m}`}
                          value={r.byScale?.[m] ?? null}
                          className={view.scaleRewards === m ? "is-own" : undefined}
                        />
                      ))}
                    {!grpo && <Num col="baseline" value={r.baseline ?? null} />}
                    {!grpo && <Num col="advantage" value={r.advantage ?? null} className="is-own" />}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="inspect-note muted">
            {grpo
              ? `Every token of completion i gets Aᵢ. The highlighted column (scale_rewards = ${view.scaleRewards}) is the one this run trains on; the others show what the alternatives would give.`
              : "Every token of completion i gets Aᵢ; the baseline of each completion is the mean score of the other G − 1."}
          </p>
        </>
      )}
    </div>
  );
}
