/**
 * Under the main charts, once the lab has one configuration on ≥ 2 seeds (Repeat on other seeds): per group,
 * its seeds and, for reward, gold reward (where it optimises another reward), KL and entropy, the mean ± sd
 * across seeds of each run's mean over a common window of steps (seed_groups.ts, from the histories the charts draw,
 * unsmoothed), and the line that tells a student how to read two groups against each other.
 */
import { useMemo } from "react";
import { CopyBibtex } from "../explain/CopyBibtex";
import { PAPERS } from "../explain/papers";
import { useLab } from "../lab_store";
import { usePipelineStore } from "./pipeline_store";
import { EXACT_KL, LAST_STEPS, type Spread, seedGroups } from "./seed_groups";

/** 3 significant digits; exponents below 1e-3 (as the lab writes small values). */
function num(x: number): string {
  if (x === 0 || Math.abs(x) >= 1e-3) return String(Number(x.toPrecision(3)));
  return x.toExponential(1);
}

/** "91–100", or "7" for a one-step window. */
function windowText([a, b]: [number, number]): string {
  return a === b ? String(a) : `${a}–${b}`;
}

function Cell({ s, note }: { s: Spread | null; note?: string }) {
  return (
    <td className="num">
      {s ? (
        <>
          {num(s.mean)} <span className="muted">± {num(s.sd)}</span>
          {note && <span className="muted"> {note}</span>}
        </>
      ) : (
        "—"
      )}
    </td>
  );
}

export function SeedsSummary() {
  const runs = useLab((s) => s.runs);
  const spec = useLab((s) => s.spec);
  // The Pipeline model the runs start from: an import counts only where it started from the same.
  const handedOff = usePipelineStore((s) => s.handedOff);
  const groups = useMemo(
    () =>
      seedGroups(
        spec.runs.map((r) => runs[r.id]).filter((r) => r !== undefined),
        { ...spec, startModel: handedOff },
      ),
    [runs, spec, handedOff],
  );
  if (groups.length === 0) return null;
  const gold = groups.some((g) => g.gold !== null);
  const henderson = PAPERS.henderson;
  return (
    <section className="seeds-summary" aria-labelledby="seeds-summary-title" data-testid="seeds-summary">
      <h3 id="seeds-summary-title" className="eyebrow">
        Across seeds
      </h3>
      <div className="table-scroll">
        <table className="results seeds-table">
          <thead>
            <tr>
              <th>Runs (same settings)</th>
              <th className="num" title="Seeds of this configuration (each run's own, or the experiment's)">
                seeds
              </th>
              <th
                className="num"
                title={`Each run's value is its mean over the same steps: its last N points up to the step every run of the group has reached (N = ${LAST_STEPS}, or fewer where a run has fewer there)`}
              >
                N · steps
              </th>
              <th className="num">reward</th>
              {gold && <th className="num">gold reward</th>}
              <th
                className="num"
                title="KL(π ‖ π_ref) per completion: the exact KL where every run logs it, else k1"
              >
                KL (nats)
              </th>
              <th className="num">entropy</th>
            </tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <tr key={g.runIds.join(" ")} data-testid={`seeds-row-${g.runIds[0]}`}>
                <td title={`Seeds ${g.seeds.join(", ")}`}>{g.label}</td>
                <td className="num">
                  {g.seeds.length} <span className="muted">({g.seeds.join(", ")})</span>
                </td>
                <td
                  className="num"
                  title={
                    g.steps[0] === g.steps[1]
                      ? undefined
                      : `runs at steps ${g.steps.join("–")}: read at steps ${windowText(g.window)}, which all reached`
                  }
                >
                  {g.n}
                  <span className="muted"> · steps {windowText(g.window)}</span>
                </td>
                <Cell s={g.reward} />
                {gold && <Cell s={g.gold} />}
                <Cell s={g.kl} note={g.klKey === EXACT_KL ? "exact" : "k1"} />
                <Cell s={g.entropy} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted seeds-note">
        Mean ± sd across seeds (n − 1) of each run's mean over the same steps (the last N up to the step every
        run of the group has reached), unsmoothed. KL is the exact KL where every run logs it (else k1),
        whatever estimator the KL chart above shows (picked beside its title), so the two can differ. Two
        settings whose difference is smaller than their spread across seeds have not been told apart: seed
        luck alone moves the numbers that much (
        <a href={henderson.url} target="_blank" rel="noreferrer">
          {henderson.authors} {henderson.year}, {henderson.title}
        </a>
        ). <CopyBibtex paper={henderson} />
      </p>
    </section>
  );
}
