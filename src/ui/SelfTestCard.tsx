import { type SelfTestResult, selfTestSummary } from "../kernels/selftest";
import { checkAgain } from "./boot";
import { int, ms, sci3, tol } from "./format";
import { timeAgo } from "./lab/experiment_names";
import { type SelfTestStatus, useApp } from "./store";

/**
 * The kernel self-test: the kernels of training and generation, each against its CPU twin, one row per case as
 * results land; or the rows an earlier load kept (./gpu_checks_kept.ts), said so, with Run again.
 */
export function SelfTestCard() {
  const status = useApp((s) => s.selfTest);
  const results = useApp((s) => s.results);
  const error = useApp((s) => s.selfTestError);
  const lost = useApp((s) => s.gpu === "lost");
  const hasTimestamps = useApp((s) => s.hasTimestamps);
  const checkedAt = useApp((s) => s.checkedAt);
  return (
    <section className="card" aria-labelledby="selftest-title" data-testid="selftest" data-status={status}>
      <h2 id="selftest-title">Kernel self-test</h2>
      <p className="muted">
        The kernels of a training step (forward, backward, the RL losses and their gradients, AdamW) and of
        generation (sampling, the KV cache, decode attention) run on seeded random inputs and are compared,
        element by element, with a plain JavaScript twin computed in float64. An element passes when |gpu −
        cpu| ≤ atol + rtol·|cpu| (0 · 0: bit-exact). Most kernels, not every one: the unit tests check all of
        them. GPU ms is each check's first dispatch, shader compilation included on a fresh page.
      </p>
      <div className="table-scroll">
        <table className="results">
          <thead>
            <tr>
              <th>Result</th>
              <th>Kernel</th>
              <th>Shape</th>
              <th className="num">Elements</th>
              <th className="num">Max |err|</th>
              <th className="num">atol · rtol</th>
              <th className="num" title={hasTimestamps ? "timestamp queries" : "wall clock, submit to done"}>
                GPU ms
              </th>
            </tr>
          </thead>
          <tbody>
            {results.map((r, i) => (
              <Row key={`${r.kernel} ${r.shape}`} r={r} index={i} />
            ))}
            {status === "running" && (
              <tr className="pending">
                <td colSpan={7}>
                  <span className="spinner" aria-hidden="true" /> running check {results.length + 1}…
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <div className="selftest-foot">
        <Summary
          status={status}
          results={results}
          error={
            lost ? "the checks' GPU device was lost (training has its own); Run again gets a new one." : error
          }
          checkedAt={checkedAt}
        />
        {(status === "done" || status === "failed" || lost) && (
          <button
            type="button"
            data-testid="selftest-again"
            title={
              lost
                ? "Get the checks a new GPU device and run the self-test and the matrix-multiply timing on it"
                : "Run the self-test and the matrix-multiply timing again, now"
            }
            onClick={() => void checkAgain()}
          >
            Run again
          </button>
        )}
      </div>
    </section>
  );
}

function Row({ r, index }: { r: SelfTestResult; index: number }) {
  return (
    <tr data-testid={`selftest-row-${index}`} data-kernel={r.kernel} data-shape={r.shape} data-ok={r.ok}>
      <td>
        <span data-testid="result" className={r.ok ? "badge badge-ok" : "badge badge-fail"}>
          {r.ok ? "pass" : "fail"}
        </span>
      </td>
      <td data-testid="kernel" className="wrap">
        {r.kernel}
      </td>
      <td data-testid="shape" className="mono wrap">
        {r.shape}
      </td>
      <td data-testid="elements" className="num" data-value={r.n}>
        {int(r.n)}
      </td>
      <td data-testid="max-err" className="num mono">
        {sci3(r.maxAbsError)}
      </td>
      <td className="num mono">
        <span data-testid="atol">{tol(r.tolerance.atol)}</span> ·{" "}
        <span data-testid="rtol">{tol(r.tolerance.rtol)}</span>
      </td>
      <td data-testid="gpu-ms" className="num mono">
        {ms(r.gpuMs)}
      </td>
    </tr>
  );
}

function Summary(props: {
  status: SelfTestStatus;
  results: SelfTestResult[];
  error: string | null;
  checkedAt: number | null;
}) {
  const { status, results, error, checkedAt } = props;
  const allOk = status === "done" && results.every((r) => r.ok);
  let text: string;
  switch (status) {
    case "waiting":
      text = "Waiting for the GPU…";
      break;
    case "running":
      text = `Running… ${results.length} done so far.`;
      break;
    case "done":
      text = allOk
        ? `${selfTestSummary(results)}.`
        : `${selfTestSummary(results)}. Training results on this adapter cannot be trusted.`;

      break;
    case "failed":
      text = `The self-test stopped after ${results.length} check${results.length === 1 ? "" : "s"}: ${error ?? "unknown error"}`;
      break;
  }
  const tone =
    status === "done" ? (allOk ? "summary-ok" : "summary-fail") : status === "failed" ? "summary-fail" : "";
  return (
    <p className={`summary ${tone}`} data-testid="selftest-summary" role="status">
      {text}
      {status === "done" && checkedAt !== null && (
        <span className="summary-kept">
          {" "}
          Checked {timeAgo(checkedAt)} with this version of the lab, this browser and this adapter (kept in
          this browser, not run at this load).
        </span>
      )}
    </p>
  );
}
