/**
 * The python3 the TRL-script tests run their generated Python with. `needs` are modules it must import (e.g.
 * numpy). Returns null (those tests skip) only where env RLHF_SKIP_PYTHON is set.
 * @throws Error when there is none: README's test command installs it (scripts/install-deps.sh), and tests that
 *   skip would pass without checking anything.
 */
import { execFileSync } from "node:child_process";

export function python3(...needs: string[]): string | null {
  // The one on PATH, else the system's (where apt installs python3-numpy when PATH has another python3).
  let why: unknown;
  for (const py of ["python3", "/usr/bin/python3"])
    try {
      execFileSync(py, ["-c", needs.map((m) => `import ${m}`).join("; ") || "pass"], { stdio: "pipe" });
      return py;
    } catch (e) {
      why ??= e;
    }
  if (!process.env.RLHF_SKIP_PYTHON)
    throw new Error(
      `the TRL-script tests need python3${needs.length ? ` with ${needs.join(", ")}` : ""} (scripts/install-deps.sh installs it; RLHF_SKIP_PYTHON=1 skips them): ${why}`,
    );
  return null;
}
