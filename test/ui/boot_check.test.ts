/**
 * public/boot-check.js, the classic script that replaces "Loading RLHF Playground…" with what went wrong when the
 * lab cannot start because of how it is hosted (the placeholder stayed forever before): its decision, run in a
 * bare VM context (no window: it only defines globalThis.rlhfBootCheck there), and index.html's wiring of it.
 */
import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";

interface Seen {
  protocol: string;
  pathname: string;
  mounted: boolean;
  loaded: boolean;
  elapsedMs: number;
  failedScript: string | null;
  probe: { status: number; type: string } | null;
  cspBlocked: string[];
  pageError: string | null;
}
interface Decision {
  cause: string;
  detail?: string;
}
interface BootCheck {
  decide(s: Seen): Decision | null;
  message(d: Decision, href: string): { title: string; text: string; items?: string[]; link?: string };
  missingSlash(pathname: string): boolean;
  STUCK_MS: number;
}

const code = readFileSync(new URL("../../public/boot-check.js", import.meta.url), "utf8");
const context: { rlhfBootCheck?: BootCheck; URL: typeof URL } = { URL };
runInNewContext(code, context);
const check = context.rlhfBootCheck as BootCheck;

const SCRIPT = "http://school.example/lab/assets/index-abc.js";
/** A page on http that has loaded, nothing failed, 1 s after the check started. */
const base: Seen = {
  protocol: "http:",
  pathname: "/lab/",
  mounted: false,
  loaded: true,
  elapsedMs: 1000,
  failedScript: null,
  probe: null,
  cspBlocked: [],
  pageError: null,
};
const decide = (s: Partial<Seen>) => check.decide({ ...base, ...s });
const failed = (probe: Seen["probe"], s: Partial<Seen> = {}) => decide({ failedScript: SCRIPT, probe, ...s });

describe("the boot check's decision", () => {
  it("never speaks over a page that mounted, whatever went wrong", () => {
    expect(decide({ mounted: true, protocol: "file:" })).toBeNull();
    expect(failed({ status: 200, type: "text/plain" }, { mounted: true })).toBeNull();
    expect(decide({ mounted: true, elapsedMs: 60_000 })).toBeNull();
  });

  it("on file:// says so at once, before the page has loaded", () => {
    expect(decide({ protocol: "file:", loaded: false, elapsedMs: 0 })).toEqual({ cause: "file" });
    const m = check.message({ cause: "file" }, "file:///home/t/dist/index.html");
    expect(m.text).toContain("file://");
    expect(m.items?.join(" ")).toContain("npx vite preview");
    expect(m.items?.join(" ")).toContain("python3 -m http.server");
  });

  it("says nothing while a slow page is still downloading, however long it takes", () => {
    expect(decide({ loaded: false, elapsedMs: 300_000 })).toBeNull();
    expect(failed({ status: 404, type: "text/html" }, { loaded: false })).toBeNull();
    expect(decide({ elapsedMs: check.STUCK_MS - 1 })).toBeNull();
  });

  it("a failed script: waits for the server's answer, then names the cause", () => {
    expect(failed(null)).toBeNull();
    expect(failed({ status: 404, type: "text/html" }, { pathname: "/courses/lab" })).toEqual({
      cause: "no-slash",
    });
    expect(failed({ status: 404, type: "text/html" })).toEqual({ cause: "missing", detail: SCRIPT });
    expect(failed({ status: 200, type: "text/plain; charset=utf-8" })).toEqual({
      cause: "mime",
      detail: "text/plain",
    });
    expect(failed({ status: 200, type: "" })).toEqual({ cause: "mime", detail: "none" });
    expect(failed({ status: 200, type: "text/javascript" })).toEqual({ cause: "blocked", detail: SCRIPT });
    expect(failed({ status: 200, type: "application/javascript; charset=utf-8" })?.cause).toBe("blocked");
    expect(failed({ status: 0, type: "" })?.cause).toBe("blocked");
    expect(failed(null, { cspBlocked: [SCRIPT] })).toEqual({ cause: "csp", detail: SCRIPT });
  });

  it("a loaded page that has not mounted after STUCK_MS: stuck, with the page's error if any", () => {
    expect(check.STUCK_MS).toBeGreaterThanOrEqual(20_000);
    expect(decide({ elapsedMs: check.STUCK_MS })).toEqual({ cause: "stuck", detail: undefined });
    expect(decide({ elapsedMs: check.STUCK_MS, pageError: "SyntaxError: x" })?.detail).toBe("SyntaxError: x");
    const m = check.message({ cause: "stuck" }, "https://school.example/lab/");
    const all = m.items?.join(" ") ?? "";
    expect(all).toContain("text/javascript");
    expect(all).toContain("Content-Security-Policy");
    expect(all).toContain("trailing slash");
  });

  it("knows a directory's address without its slash", () => {
    expect(check.missingSlash("/courses/rl/lab")).toBe(true);
    expect(check.missingSlash("/courses/rl/lab/")).toBe(false);
    expect(check.missingSlash("/")).toBe(false);
    expect(check.missingSlash("/lab/index.html")).toBe(false);
    const m = check.message({ cause: "no-slash" }, "http://school.example/courses/lab?x=1#s=abc");
    expect(m.link).toBe("http://school.example/courses/lab/?x=1#s=abc");
    expect(m.text).toContain("http://school.example/courses/lab/?x=1#s=abc");
  });
});

describe("index.html", () => {
  const html = readFileSync(new URL("../../index.html", import.meta.url), "utf8");

  it("loads the boot check as a classic same-origin script in the head, before the app's, no inline script", () => {
    expect(html).toMatch(/<script src="\/boot-check\.js"><\/script>/);
    expect(html.indexOf("boot-check.js")).toBeLessThan(html.indexOf("</head>"));
    expect(html.indexOf("boot-check.js")).toBeLessThan(html.indexOf('type="module"'));
    expect(html).toContain('id="boot-status"');
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>/g)];
    expect(inline).toEqual([]);
  });

  it("has advice that needs no script at all, revealed late by CSS", () => {
    expect(html).toMatch(/class="boot-late"/);
    expect(html).toMatch(/animation: boot-late-reveal 0s 30s forwards/);
  });
});
