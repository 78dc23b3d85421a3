/**
 * THIRD_PARTY_NOTICES.txt (build/notices.ts, build/notices_text.ts): a real Vite build of a small fixture page
 * (test/build/fixture: lz-string and comlink in the page, idb in its worker) emits it into the output, naming
 * exactly the packages in the page's and the worker's chunks with version, licence and licence text, and the
 * data notices; and the text's rules (sorted, deduplicated, a licence text for a package that ships none).
 * The real site's file is checked by e2e/credits.spec.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { build, type Rolldown } from "vite";
import { describe, expect, it } from "vitest";
import { thirdPartyNotices } from "../../build/notices";
import { NOTICES_FILE, type NoticePackage, noticesText } from "../../build/notices_text";

const fixture = join(import.meta.dirname, "fixture");
const version = (name: string): string =>
  JSON.parse(readFileSync(join(import.meta.dirname, "../../node_modules", name, "package.json"), "utf8"))
    .version;

/** Builds the fixture in memory with the notices plugins; returns the emitted notices file's text. */
async function buildFixture(): Promise<string> {
  const notices = thirdPartyNotices();
  const out = (await build({
    configFile: false,
    logLevel: "silent",
    root: fixture,
    plugins: [notices.page],
    worker: { format: "es", plugins: () => [notices.worker()] },
    build: { write: false, minify: false, rolldownOptions: { input: join(fixture, "main.ts") } },
  })) as Rolldown.RolldownOutput;
  const file = out.output.find((o) => o.fileName === NOTICES_FILE);
  if (!file || file.type !== "asset") throw new Error(`no ${NOTICES_FILE} in the build's output`);
  return String(file.source);
}

describe("THIRD_PARTY_NOTICES.txt", () => {
  it("a vite build emits it with the page's and its worker's packages and the data notices", async () => {
    const text = await buildFixture();
    const listed = [...text.matchAll(/^(\S+) (\d+\.\d+\.\d+\S*)\nLicense: (.+)$/gm)].map(
      (m) => `${m[1]} ${m[3]}`,
    );
    expect(listed).toEqual(["comlink Apache-2.0", "idb ISC", "lz-string MIT"]);
    expect(text).toContain(`lz-string ${version("lz-string")}\nLicense: MIT`);
    expect(text).toContain(`idb ${version("idb")}\nLicense: ISC`);
    expect(text).toContain("Apache License\n                           Version 2.0, January 2004"); // comlink's text
    expect(text).toMatch(/AFINN-165 by Finn Årup Nielsen \(DTU\), Open Database License \(ODbL\) v1\.0/);
    expect(text).toMatch(/Moby-Dick[^\n]*\(PDDL\) v1\.0[^\n]*\(CC0\) v1\.0/);
  }, 60_000);

  const pkg = (name: string, over: Partial<NoticePackage> = {}): NoticePackage => ({
    name,
    version: "1.0.0",
    license: "MIT",
    licenseText: `${name}'s licence`,
    noticeText: null,
    author: null,
    ...over,
  });

  it("sorts by name, lists a name@version once and keeps a package's NOTICE", () => {
    const text = noticesText([pkg("b"), pkg("a", { noticeText: "a's notice" }), pkg("b")]);
    expect(text.indexOf("a 1.0.0\n")).toBeLessThan(text.indexOf("b 1.0.0\n"));
    expect(text.match(/^b 1\.0\.0$/gm)).toHaveLength(1);
    expect(text).toContain("a's licence\n\nNOTICE:\n\na's notice");
    expect(text).toContain("the 2 third-party packages below");
    // Served as text/plain without a charset, only a byte-order mark makes a browser read it as UTF-8.
    expect(text.startsWith("\uFEFFRLHF Playground: third-party notices")).toBe(true);
  });

  it("gives a package without a licence file its MIT text (onnxruntime-web: Microsoft's), else says so", () => {
    const ort = noticesText([pkg("onnxruntime-web", { licenseText: null, author: { name: "fs-eire" } })]);
    expect(ort).toContain("Copyright (c) Microsoft Corporation\n\nPermission is hereby granted");
    expect(ort).toContain("ThirdPartyNotices.txt");
    const other = noticesText([pkg("x", { licenseText: null, author: { name: "X Y" } })]);
    expect(other).toContain("Copyright (c) X Y\n");
    const none = noticesText([pkg("z", { licenseText: null, license: "BSD-2-Clause" })]);
    expect(none).toContain(
      "ships no licence text. Licence: BSD-2-Clause, https://spdx.org/licenses/BSD-2-Clause.html",
    );
  });
});
