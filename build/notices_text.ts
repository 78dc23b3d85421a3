/**
 * The text of the built site's THIRD_PARTY_NOTICES.txt (written by ./notices.ts): every third-party package the
 * bundle contains, with its version, licence and licence text, then the notices of the third-party data the
 * page carries (src/tasks/sentiment/licences.ts).
 *
 * Pure: takes the packages as found (rollup-plugin-license reads each one's package.json and its
 * LICENSE/LICENCE and NOTICE files from node_modules) and returns the file's text.
 */
import {
  AFINN_ATTRIBUTION,
  AFINN_PRODUCED_WORK,
  MOBY_DICK_ATTRIBUTION,
} from "../src/tasks/sentiment/licences.ts";

/** The file's name in dist/ (the page links it: src/ui/Credits.tsx). */
export const NOTICES_FILE = "THIRD_PARTY_NOTICES.txt";

/** What the notices need of one bundled package (a subset of rollup-plugin-license's Dependency). */
export interface NoticePackage {
  name: string | null;
  version: string | null;
  /** SPDX expression from its package.json, e.g. "MIT", "MIT AND ISC AND BSD-3-Clause"; null if none. */
  license: string | null;
  /** Its LICENSE/LICENCE file's text; null when the package ships none. */
  licenseText: string | null;
  /** Its NOTICE file's text (Apache-2.0 §4(d) asks that it travel with the binaries); null if none. */
  noticeText: string | null;
  author: { name: string } | null;
}

/**
 * Licence texts for bundled packages whose npm tarball ships no licence file, from their upstream repository.
 * onnxruntime-web: ONNX Runtime's LICENSE (MIT, Microsoft). Its WebAssembly binary also contains third-party
 * components listed in ONNX Runtime's ThirdPartyNotices.txt, which the npm package does not ship either.
 */
const UPSTREAM: Readonly<Record<string, { holder: string; note: string }>> = {
  "onnxruntime-web": {
    holder: "Microsoft Corporation",
    note:
      "The npm package ships no licence file; this is ONNX Runtime's LICENSE (https://github.com/microsoft/onnxruntime). " +
      "Its WebAssembly binaries (assets/ort-wasm-*.wasm) also contain the third-party components listed in " +
      "https://github.com/microsoft/onnxruntime/blob/main/ThirdPartyNotices.txt.",
  },
};

/** The MIT licence's text for `holder` (SPDX "MIT"). */
export function mitText(holder: string): string {
  return `MIT License

Copyright (c) ${holder}

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.`;
}

/**
 * A package's licence text: its own file; else, for an MIT package, the MIT text with the upstream holder
 * (UPSTREAM) or its package.json author; else a line saying none was shipped and where the licence is.
 */
export function licenceText(pkg: NoticePackage): string {
  if (pkg.licenseText) return pkg.licenseText.trim();
  const upstream = pkg.name ? UPSTREAM[pkg.name] : undefined;
  if (pkg.license === "MIT" && (upstream || pkg.author)) {
    const holder = upstream?.holder ?? pkg.author?.name ?? "";
    return upstream ? `${upstream.note}\n\n${mitText(holder)}` : mitText(holder);
  }
  const spdx = pkg.license ?? "UNKNOWN";
  return `(The package ships no licence text. Licence: ${spdx}, https://spdx.org/licenses/${spdx}.html)`;
}

/** The data notices, as in README "Licence". */
export function dataNotices(): string {
  return [
    "THIRD-PARTY DATA",
    "",
    `- ${AFINN_ATTRIBUTION}. The sentiment task's gold reward: the page contains the whole lexicon.`,
    `  ${AFINN_PRODUCED_WORK}`,
    `- ${MOBY_DICK_ATTRIBUTION}. The sentiment task's corpus.`,
  ].join("\n");
}

const RULE = "=".repeat(78);

/**
 * The whole file (starting with a UTF-8 byte-order mark, {@link BOM}): a header, one block per package (sorted by name, then version; duplicates by name@version
 * dropped), then the data notices. Each block: "name version", "License: SPDX", the licence text and, where
 * the package has one, its NOTICE.
 */
export function noticesText(packages: readonly NoticePackage[]): string {
  const byKey = new Map<string, NoticePackage>();
  for (const p of packages) byKey.set(`${p.name}@${p.version}`, p);
  const sorted = [...byKey.values()].sort(
    (a, b) => (a.name ?? "").localeCompare(b.name ?? "") || (a.version ?? "").localeCompare(b.version ?? ""),
  );
  const blocks = sorted.map((p) => {
    const lines = [`${p.name} ${p.version}`, `License: ${p.license ?? "UNKNOWN"}`, "", licenceText(p)];
    if (p.noticeText) lines.push("", "NOTICE:", "", p.noticeText.trim());
    return lines.join("\n");
  });
  const header = [
    "RLHF Playground: third-party notices",
    "",
    "RLHF Playground's own code is under the MIT licence (LICENSE in its repository). This site also contains",
    `the ${sorted.length} third-party packages below (name, version, licence, licence text) and the data`,
    "listed after them. KaTeX's fonts (assets/KaTeX_*) are part of the katex package.",
  ].join("\n");
  // A UTF-8 byte-order mark first: static servers send .txt as text/plain without a charset, and browsers then
  // read it as windows-1252 ("Finn Ã…rup Nielsen" for the AFINN credit the ODbL asks for); the mark wins.
  return BOM + [header, ...blocks, dataNotices()].join(`\n\n${RULE}\n\n`).concat("\n");
}

/** U+FEFF, the UTF-8 byte-order mark the file starts with. */
export const BOM = "\uFEFF";
