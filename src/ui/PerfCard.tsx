/**
 * The performance card: what this adapter does with our kernels. The matmul throughput measured at start-up
 * (src/kernels/throughput.ts) and, while the lab trains, each run's training throughput (its `tokens/s`
 * metric: completion tokens per second of a whole step — sampling, scoring and the update — in the worker).
 */
import type { AutotuneResult } from "../kernels/autotune";
import { timeAgo } from "./lab/experiment_names";
import { useLab } from "./lab_store";
import { useApp } from "./store";

const fmt = (x: number, digits = 3) => (x >= 100 ? x.toFixed(0) : x.toPrecision(digits));

export function PerfCard() {
  const perf = useApp((s) => s.perf);
  const perfError = useApp((s) => s.perfError);
  const checkedAt = useApp((s) => s.checkedAt);
  const software = useApp((s) => s.adapter?.isSoftware ?? false);
  const runs = useLab((s) => s.runs);
  const kernels = useLab((s) => s.kernels);
  // Runs imported for comparison train nothing here: their curves' tokens/s was measured elsewhere.
  const speeds = Object.values(runs).flatMap((r) => {
    const last = r.comparison ? undefined : r.history.at(-1)?.metrics["tokens/s"];
    return last !== undefined && Number.isFinite(last)
      ? [{ id: r.spec.id, label: r.spec.label, tps: last }]
      : [];
  });
  return (
    <section className="card" aria-labelledby="perf-title" data-testid="perf-card">
      <h2 id="perf-title">Performance</h2>
      {software && (
        <p className="muted" data-testid="perf-software">
          A software adapter (the CPU emulating a GPU) runs these kernels hundreds to thousands of times
          slower than a real GPU: expect steps in seconds to minutes, not milliseconds.
        </p>
      )}
      <dl className="facts">
        <div className="perf-run">
          <dt title="Billions of floating-point operations per second in our matrix-multiply kernel, the bulk of a training step">
            Matrix multiply
          </dt>
          <dd data-testid="perf-gflops" data-gflops={perf?.gflops ?? ""}>
            {perf ? (
              <>
                {fmt(perf.gflops)} GFLOP/s{" "}
                <small
                  className="perf-detail muted"
                  title={`${perf.variant} kernel, timed with ${perf.source}: the median of ${perf.samples} timings of the batch`}
                >
                  fp32, {perf.n}³ × {perf.reps}, {perf.variant}
                  {checkedAt !== null && `, measured ${timeAgo(checkedAt)}`}
                </small>
              </>
            ) : perfError ? (
              `not measured: ${perfError}`
            ) : (
              "measuring after the self-test…"
            )}
          </dd>
        </div>
        {kernels && <KernelPick pick={kernels} />}
        {speeds.map((s) => (
          <div key={s.id} className="perf-run">
            <dt>{s.label}</dt>
            <dd data-testid={`perf-tps-${s.id}`} data-tps={s.tps}>
              {fmt(s.tps)} tokens/s
            </dd>
          </div>
        ))}
        {speeds.length === 0 && (
          <div className="perf-run">
            <dt>Training speed</dt>
            <dd className="muted">tokens/s of each run appear here once the lab trains</dd>
          </div>
        )}
      </dl>
      {kernels && (
        <p className="perf-note muted">
          Kernels: <i>tiled</i> shares 16×16 tiles through workgroup memory (fast on GPUs); <i>regtile</i>{" "}
          keeps 4×4 blocks in registers without barriers (fast on software adapters).
        </p>
      )}
      {speeds.length > 0 && (
        <p className="perf-note muted">
          Runs: completion tokens per second of their last step (sampling, scoring and the update).
        </p>
      )}
    </section>
  );
}

const FROM: Record<AutotuneResult["from"], string> = {
  timed: "timed at start-up",
  memory: "timed earlier by this worker",
  saved: "kept from an earlier timing in this browser",
};
/** "74.7 ms", kept on one line. */
const msText = (t: number) => `${fmt(t)}\u00a0ms`;

/** The matmul variant the training worker picked at start-up, with each variant's time on the problem it timed. */
function KernelPick({ pick }: { pick: AutotuneResult }) {
  const { variant, ms, shape } = pick.matmul;
  const times = Object.entries(ms)
    .sort((a, b) => a[1] - b[1])
    .map(([v, t]) => `${v} ${msText(t)}`)
    .join(", ");
  return (
    <div className="perf-run">
      <dt title="The training worker times each matrix-multiply kernel once per adapter on a problem the size of the model's QKV projection and trains with the fastest (tiled: shared-memory tiles, for GPUs; regtile: register blocks without barriers, for software adapters). The pick is kept in this browser, so the next visit trains with the same kernel.">
        Training kernel
      </dt>
      <dd data-testid="perf-kernel" data-variant={variant} data-from={pick.from} data-ms={JSON.stringify(ms)}>
        {variant}{" "}
        <small
          className="perf-detail muted"
          title="M×N×K: C[M×N] = A[M×K]·B[K×N], the model's QKV projection over 256 tokens"
        >
          {FROM[pick.from]}; one {shape.M}×{shape.N}×{shape.K} matmul: {times}
        </small>
      </dd>
    </div>
  );
}
