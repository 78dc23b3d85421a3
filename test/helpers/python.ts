/**
 * The python3 the TRL-script tests run their generated Python with, or null when this machine has none (those
 * tests then skip). `needs` are modules it must import (e.g. numpy); without them it counts as absent.
 * @throws Error under CI (env CI set) when it is absent: CI installs it (scripts/install-deps.sh), and tests
 *   that skip there would pass without checking anything.
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
  if (process.env.CI)
    throw new Error(
      `CI needs python3${needs.length ? ` with ${needs.join(", ")}` : ""} (scripts/install-deps.sh installs it): ${why}`,
    );
  return null;
}
