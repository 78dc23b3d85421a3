/**
 * Links altered after they were made (src/lab/url.ts specFromHash): characters pasted after the experiment are
 * ignored and said; characters changed where they still decode to the same experiment open it, and are said.
 */
import { compressToEncodedURIComponent, decompressFromEncodedURIComponent } from "lz-string";
import { describe, expect, it } from "vitest";
import { defaultExperiment } from "../../src/lab/defaults";
import { encode, specFromHash, URL_VERSION } from "../../src/lab/url";

/** lz-string's URI-safe alphabet (compressToEncodedURIComponent). */
const LZ_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$";

describe("altered links", () => {
  it("opens a link with characters after its experiment, and says they were ignored", () => {
    const spec = { ...defaultExperiment(), seed: 7 };
    const hash = `#${encode(spec)}`;
    const o = specFromHash(`${hash}garbage!!`);
    expect(o.source).toBe("url");
    expect(o.spec).toEqual(spec);
    expect(o.notice).toBe(
      "This link has 9 characters after its experiment (“garbage!!”), which were ignored.",
    );
    // A sentence's full stop pasted with the link: still opens, one character named.
    expect(specFromHash(`${hash}.`).notice).toMatch(
      /has 1 character after its experiment \(“\.”\), which was ignored/,
    );
    // A stray "%" after it (not a percent-encoding) does not spoil the link.
    expect(specFromHash(`${hash}50%`).spec).toEqual(spec);
    expect(specFromHash(`${hash}50%`).notice).toMatch(/has 3 characters after its experiment \(“50%”\)/);
    const long = specFromHash(`${hash}${"x".repeat(40)}`).notice;
    expect(long).toMatch(/40 characters after its experiment \(“x{24}…”\)/);
    // With a bad setting as well, both are said.
    const bad = `#s=${compressToEncodedURIComponent(JSON.stringify({ v: URL_VERSION, runs: [{ id: "ppo-1", algo: "ppo", config: { beta: 99 } }] }))}`;
    const both = specFromHash(`${bad}zz`).notice;
    expect(both).toMatch(
      /^This link has 2 characters after its experiment .* Some settings in this link were not valid/,
    );
  });

  it("says when a link's characters were changed yet still read as an experiment", () => {
    const spec = { ...defaultExperiment(), seed: 7 };
    const body = encode(spec).slice(2);
    // The last character's spare bits: other characters there decode to the same experiment.
    const same = [...LZ_ALPHABET]
      .map((c) => `${body.slice(0, -1)}${c}`)
      .filter(
        (b) => b !== body && decompressFromEncodedURIComponent(b) === decompressFromEncodedURIComponent(body),
      );
    expect(same.length).toBeGreaterThan(0);
    for (const b of same) {
      const o = specFromHash(`#s=${b}`);
      expect(o.spec).toEqual(spec);
      expect(o.notice).toBe(
        "This link was changed after it was made, but it still reads as an experiment: it opened as read, so check its settings.",
      );
    }
  });
});
