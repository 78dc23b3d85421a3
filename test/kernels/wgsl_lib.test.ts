import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { linkWgsl, WGSL_LIB } from "../../src/kernels/wgsl_lib";

const shaders = readdirSync("src/shaders").filter((f) => f.endsWith(".wgsl"));
const including = shaders.filter((f) => /^\/\/ #include /m.test(readFileSync(`src/shaders/${f}`, "utf8")));

describe("WGSL includes", () => {
  it("paste each shared piece once where a shader names it", () => {
    const lib = { a: "fn a() {}\n", b: "fn b() {}" };
    const src = "// head\n// #include a (fn a)\nfn main() {}\n// #include b\n";
    expect(linkWgsl("t", src, lib)).toBe("// head\nfn a() {}\nfn main() {}\nfn b() {}\n");
    expect(linkWgsl("t", "fn main() {}", lib)).toBe("fn main() {}"); // nothing to include
    // Only a whole comment line includes: prose that mentions the directive does not.
    expect(linkWgsl("t", "x = 1; // #include a", lib)).toBe("x = 1; // #include a");
  });

  it("name the shader and the piece on a bad include", () => {
    expect(() => linkWgsl("softmax", "// #include nope\n")).toThrow(/softmax.*nope.*reduce_vec2/);
    expect(() => linkWgsl("t", "// #include reduce_vec2\n// #include reduce_vec2\n")).toThrow(/twice/);
  });

  it("leave every shipped shader with no include line and each reduction defined once", () => {
    // The vocabulary-row kernels share their reductions: the ones that name a piece.
    expect(including.sort()).toEqual(
      [
        "cross_entropy.wgsl",
        "entropy.wgsl",
        "entropy_backward.wgsl",
        "exact_kl.wgsl",
        "exact_kl_backward.wgsl",
        "softmax.wgsl",
        "token_logprob.wgsl",
        "token_logprob_backward.wgsl",
      ].sort(),
    );
    for (const f of including) {
      const linked = linkWgsl(f, readFileSync(`src/shaders/${f}`, "utf8"));
      expect(linked, f).not.toMatch(/^\/\/ #include /m);
      for (const fn of ["neg_inf", "wg_max"])
        expect(linked.match(new RegExp(`fn ${fn}\\(`, "g"))?.length, `${f}: ${fn}`).toBe(1);
      expect(linked.match(/var<workgroup> scratch/g)?.length, f).toBe(1);
    }
    expect(Object.keys(WGSL_LIB).sort()).toEqual(["kl_rows", "logit_rows", "reduce_vec2"]);
  });

  it("leave each normaliser pass (row max, then S = 1 + r) to logit_rows / kl_rows, written once", () => {
    for (const f of including) {
      const raw = readFileSync(`src/shaders/${f}`, "utf8");
      const code = raw.replace(/\/\/.*$/gm, "");
      expect(code, `${f} runs its own max pass: call row_norm, entropy_norm or kl_norm`).not.toMatch(
        /wg_max/,
      );
      expect(raw, f).toMatch(/^\/\/ #include (logit_rows|kl_rows)\b/m);
    }
  });
});
