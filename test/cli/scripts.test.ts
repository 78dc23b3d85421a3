/**
 * The scripts' command lines (README: every tool prints its usage on --help and refuses an unknown option, a
 * malformed number or an output path it cannot write before any work starts, exit 2). Each case below fails in
 * a second; before its fix it did the slow work first (sampling, a build and a browser, training).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const TSX = ["--import", "tsx", "--import", "./cli/raw-loader.mjs"];
const dir = mkdtempSync(join(tmpdir(), "script-args-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(script: string, ...args: string[]) {
  const r = spawnSync("node", [...TSX, `scripts/${script}.ts`, ...args], {
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

/** Refused with exit 2 and one line naming the problem (no stack trace), before any work. */
function expectRefusal(r: ReturnType<typeof run>, message: RegExp) {
  expect(r.err).toMatch(message);
  expect(r.err).not.toMatch(/^\s+at /m);
  expect(r.out).toBe("");
  expect(r.status).toBe(2);
}

describe("scripts' command lines", () => {
  it("train-rm refuses a missing --init or --data and --init with --preset (one line, exit 2)", () => {
    const missing = join(dir, "missing.safetensors");
    // It once trained from a fresh init with a WARNING and exited 0.
    const init = run("train-rm", "--task", "arithmetic", "--init", missing);
    expectRefusal(init, /^--init \S*missing\.safetensors: no such checkpoint/);
    expect(init.err.trim().split("\n")).toHaveLength(1);
    // --preset was ignored when the checkpoint existed.
    const sft = "public/models/arithmetic/sft.safetensors";
    expectRefusal(
      run("train-rm", "--task", "arithmetic", "--init", sft, "--preset", "nano"),
      /--init and --preset/,
    );
    expectRefusal(run("train-rm", "--task", "arithmetic", "--preset", "huge"), /--preset must be one of/);
    // It once printed a stack trace naming `npm run build-preferences`, which does not exist.
    const data = run("train-rm", "--task", "sentiment", "--data", join(dir, "none.jsonl"));
    expectRefusal(
      data,
      /^--data \S*none\.jsonl: no such file \(npm run build-sft-preferences -- --task sentiment/,
    );
    expect(data.err.trim().split("\n")).toHaveLength(1);
  });

  it("build-preferences refuses a malformed number or a missing --samples file (one line, exit 2)", () => {
    // Number() let "--pairs abc" through as NaN.
    const base = ["--task", "arithmetic", "--placeholder", "2", "--out", join(dir, "p.jsonl")];
    expectRefusal(
      run("build-preferences", ...base, "--pairs", "abc"),
      /^--pairs must be a whole number ≥ 1, got "abc"/,
    );
    expectRefusal(
      run("build-preferences", ...base, "--flip", "2"),
      /^--flip must be a number in \[0, 1\], got "2"/,
    );
    expectRefusal(
      run("build-preferences", "--task", "arithmetic", "--samples", join(dir, "none.jsonl")),
      /^--samples \S*none\.jsonl: no such file/,
    );
  });

  it("build-sft-preferences checks --out and its numbers before sampling (exit 2)", () => {
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    // Both were found after ~15 s of sampling, with a 39 KB stack trace and exit 7.
    expectRefusal(
      run("build-sft-preferences", "--task", "arithmetic", "--out", join(file, "sub")),
      /^--out \S*a-file\/sub: cannot write there/,
    );
    expectRefusal(
      run("build-sft-preferences", "--task", "arithmetic", "--flip", "abc"),
      /^--flip must be a number in \[0, 1\], got "abc"/,
    );
    expectRefusal(
      run("build-sft-preferences", "--task", "arithmetic", "--pairs", "1.5"),
      /^--pairs must be a whole number ≥ 1, got "1\.5"/,
    );
  });

  it("check-onnx-webgpu prints its usage on --help and refuses an unknown option", () => {
    // --help once ran the whole check (a Vite build and Chromium).
    const help = run("check-onnx-webgpu", "--help");
    expect(help.status).toBe(0);
    expect(help.out).toMatch(/^usage: npm run check-onnx-webgpu/);
    expectRefusal(
      run("check-onnx-webgpu", "--quick"),
      /^Unknown option '--quick'\nusage: npm run check-onnx-webgpu/,
    );
  });

  it("profile-ui prints its usage on --help and refuses unknown options, bad numbers and paths", () => {
    const help = run("profile-ui", "--help");
    expect(help.status).toBe(0);
    expect(help.out).toMatch(/^usage: npm run profile-ui -- \[--seconds 20\]/);
    expectRefusal(
      run("profile-ui", "--second", "5"),
      /^Unknown option '--second'\nusage: npm run profile-ui/,
    );
    expectRefusal(
      run("profile-ui", "--seconds", "abc"),
      /^--seconds must be a number in \[1, 3600\], got "abc"/,
    );
    expectRefusal(run("profile-ui", "--port", "99999"), /^--port must be a whole number in \[1, 65535\]/);
    expectRefusal(run("profile-ui", "--view", "chart"), /^--view must be one of charts\|more\|samples/);
    expectRefusal(run("profile-ui", "--save", dir), /^--save \S+: cannot write there \(it is a folder\)/);
  });
});
