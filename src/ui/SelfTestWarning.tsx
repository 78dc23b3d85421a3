/**
 * A self-test that failed, said where the student works (the page's top), not only in the System panel folded
 * at the bottom: training numbers on a kernel that disagrees with its CPU twin cannot be trusted.
 */
import { useState } from "react";
import { selfTestWarning } from "./self_test_warning";
import { useApp } from "./store";

export function SelfTestWarning() {
  const results = useApp((s) => s.results);
  // Once the self-test has finished: "N of M" counts every check.
  const finished = useApp((s) => s.selfTest === "done" || s.selfTest === "failed");
  const [dismissed, setDismissed] = useState(false);
  const line = finished ? selfTestWarning(results) : null;
  if (!line || dismissed) return null;
  return (
    <div className="banner banner-error" role="alert" data-testid="selftest-warning">
      <div className="banner-body">
        <strong>The kernel self-test failed.</strong> {line}: training numbers here cannot be trusted. Another
        browser or GPU may do; the checks and their errors are under System, at the bottom of the page.
      </div>
      <button type="button" className="banner-close" aria-label="Dismiss" onClick={() => setDismissed(true)}>
        ×
      </button>
    </div>
  );
}
