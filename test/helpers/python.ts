/**
 * The python3 the TRL-script tests run their generated Python with, or null when this machine has none (those
 * tests then skip). `needs` are modules it must import (e.g. numpy); without them it counts as absent.
 */
import { execFileSync } from "node:child_process";

export function python3(...needs: string[]): string | null {
  try {
    execFileSync("python3", ["-c", needs.map((m) => `import ${m}`).join("; ") || "pass"], { stdio: "pipe" });
    return "python3";
  } catch {
    return null;
  }
}
