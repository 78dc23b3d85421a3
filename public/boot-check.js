/**
 * The page's boot check: when the lab cannot start because of how it is hosted, it says why instead of leaving
 * "Loading RLHF Playground…" on screen forever. A classic script (not a module) served as a same-origin file,
 * so that it runs where the lab's module script is refused (file://, a .js MIME type of text/plain) and under
 * `script-src 'self'`; loaded by index.html's head before the module script, so that its listeners see every
 * failure of the page's scripts (a Content-Security-Policy reports a blocked script as soon as it is parsed).
 *
 * It only ever replaces index.html's placeholder (#boot-status), and only while the placeholder is still there:
 * React's first render clears #root, so a page that mounted is never touched, and a message shown before a late
 * mount is cleared by it. It speaks:
 * - at once on file:// (browsers refuse module scripts from a file's null origin);
 * - once the page's load event has fired, when a script of the page failed to load (its error event, seen in the
 *   capture phase): naming the cause found by asking the server for the script again (HEAD): a missing trailing
 *   slash (a directory's address without its "/", which makes ./assets/* resolve one directory up), a missing
 *   file (404), a MIME type that is not JavaScript, or a Content-Security-Policy that blocked it;
 * - when the app has still not mounted STUCK_MS (20 s) after the script started and the page has loaded (a merely
 *   slow download has not fired the load event yet, so it is waited for), with a list of likely causes.
 * `globalThis.rlhfBootCheck` holds its pure decision (`decide`) for the unit test (test/ui/boot_check.test.ts).
 * Hosting advice: README.md, "Hosting the lab".
 */
(() => {
  /** How long after this script starts an unmounted, fully loaded page counts as stuck (ms). */
  const STUCK_MS = 20000;
  /** How often the page is looked at again (ms). */
  const POLL_MS = 1000;
  /** The MIME types browsers run as module scripts (essence, lower case). */
  const JS_TYPE = /^(text|application)\/(javascript|ecmascript|x-javascript|x-ecmascript)$/;

  /** Whether a page path looks like a directory's without its trailing slash ("/courses/lab", not "/x.html"). */
  function missingSlash(pathname) {
    if (pathname === "" || pathname.endsWith("/")) return false;
    const last = pathname.slice(pathname.lastIndexOf("/") + 1);
    return !last.includes(".");
  }

  /**
   * What to say, from what was seen so far; null to say nothing (yet).
   * @param s.protocol location.protocol ("file:", "http:", ...)
   * @param s.pathname location.pathname
   * @param s.mounted false while index.html's placeholder is still in #root
   * @param s.loaded whether the window's load event has fired
   * @param s.elapsedMs ms since this script started
   * @param s.failedScript the URL of the first script that fired an error event, or null
   * @param s.probe the server's answer for that URL: null while asked, {status, type} (status 0: no answer)
   * @param s.cspBlocked the URLs a Content-Security-Policy blocked as scripts (securitypolicyviolation events)
   * @param s.pageError the message of an uncaught error thrown by a script, or null
   * @returns {null | {cause: "file" | "no-slash" | "missing" | "mime" | "csp" | "blocked" | "stuck", detail?: string}}
   */
  function decide(s) {
    if (s.mounted) return null;
    if (s.protocol === "file:") return { cause: "file" };
    if (s.failedScript) {
      if (!s.loaded) return null;
      if (s.cspBlocked.length > 0) return { cause: "csp", detail: s.cspBlocked.join(", ") };
      if (s.probe === null) return null;
      const ok = s.probe.status >= 200 && s.probe.status < 300;
      if (!ok && missingSlash(s.pathname)) return { cause: "no-slash" };
      if (s.probe.status === 404 || s.probe.status === 410)
        return { cause: "missing", detail: s.failedScript };
      const type = (s.probe.type || "").split(";")[0].trim().toLowerCase();
      if (ok && !JS_TYPE.test(type)) return { cause: "mime", detail: type || "none" };
      return { cause: "blocked", detail: s.failedScript };
    }
    if (s.loaded && s.elapsedMs >= STUCK_MS) return { cause: "stuck", detail: s.pageError || undefined };
    return null;
  }

  /** The message for a decision: a title, paragraphs, and a list of things to try. */
  function message(d, href) {
    const url = new URL(href);
    url.pathname += "/";
    const fixed = url.href;
    const serve = [
      "Build it (`npm run build`) and serve the folder with a web server, for example `npx vite preview` in the project, or `python3 -m http.server 8080` in dist/ and open http://localhost:8080/.",
    ];
    const generic = [
      "The server must send .js files as `text/javascript` (browsers refuse module scripts sent as text/plain or application/octet-stream).",
      "A Content-Security-Policy must allow the page's own scripts: `script-src 'self' 'wasm-unsafe-eval'`.",
      "The address must be the lab's folder with its trailing slash (`…/lab/`, not `…/lab`), and every file of the build must be uploaded, assets/ included.",
      "The browser must be recent (Chrome or Edge 113+, Firefox 141+, Safari 26+).",
    ];
    switch (d.cause) {
      case "file":
        return {
          title: "The lab cannot run from a file",
          text: "This page was opened straight from the disk (`file://`). Browsers refuse to run its scripts from there: the lab has to be served by a web server, even one on this computer.",
          items: serve,
        };
      case "no-slash":
        return {
          title: "The address is missing its trailing slash",
          text: `The lab is a folder, and its files are found relative to the address: without the final "/", the browser looked for them one folder up and did not find them. Open \`${fixed}\` instead, or make the server redirect this address there.`,
          link: fixed,
        };
      case "missing":
        return {
          title: "The lab's script was not found on the server",
          text: `The server answered 404 for ${d.detail}. Upload the whole build (dist/, its assets/ folder included), and open the folder's address with its trailing slash.`,
          items: generic,
        };
      case "mime":
        return {
          title: "The server sends the lab's script with the wrong type",
          text: `The server sent the lab's JavaScript as "${d.detail}", and browsers run module scripts only when they are sent as JavaScript. Configure the server to send .js files as \`text/javascript\` (and .wasm as \`application/wasm\`).`,
          items: generic,
        };
      case "csp":
        return {
          title: "A Content-Security-Policy blocked the lab's scripts",
          text: `The page's Content-Security-Policy blocked ${d.detail}. The lab needs at least \`script-src 'self' 'wasm-unsafe-eval'\` (see "Hosting the lab" in the lab's README for the whole policy).`,
          items: generic,
        };
      case "blocked":
        return {
          title: "The lab's script did not load",
          text: `The browser did not run ${d.detail}. Likely causes:`,
          items: generic,
        };
      default:
        return {
          title: "The lab did not start",
          text: `The page has loaded but the lab has not started after ${STUCK_MS / 1000} seconds.${d.detail ? ` The browser reported: ${d.detail}.` : ""} Likely causes:`,
          items: generic,
        };
    }
  }

  /** Replace the placeholder's content with the message (DOM nodes, no HTML strings, no inline style). */
  function show(doc, placeholder, d, href) {
    const m = message(d, href);
    const code = (t) => {
      const c = doc.createElement("code");
      c.textContent = t;
      return c;
    };
    const el = (tag, text) => {
      const e = doc.createElement(tag);
      // `text in backquotes` becomes <code>text</code>
      if (text) e.append(...text.split("`").map((t, i) => (i % 2 ? code(t) : t)));
      return e;
    };
    const box = el("div");
    box.setAttribute("role", "alert");
    box.dataset.bootCause = d.cause;
    box.append(el("h2", m.title), el("p", m.text));
    if (m.items) {
      const ul = el("ul");
      for (const i of m.items) ul.append(el("li", i));
      box.append(ul);
    }
    const actions = el("p");
    if (m.link) {
      const go = el("a", `Open ${m.link}`);
      go.href = m.link;
      actions.append(go, " · ");
    }
    const reload = el("a", "Reload");
    reload.href = href;
    reload.dataset.bootReload = "";
    actions.append(reload);
    box.append(actions);
    placeholder.replaceChildren(box);
    placeholder.style.textAlign = "left";
    placeholder.style.margin = "10vh auto";
    placeholder.style.maxWidth = "42rem";
  }

  function watch(win, doc) {
    const start = Date.now();
    const state = {
      protocol: win.location.protocol,
      pathname: win.location.pathname,
      mounted: false,
      loaded: doc.readyState === "complete",
      elapsedMs: 0,
      failedScript: null,
      probe: null,
      cspBlocked: [],
      pageError: null,
    };
    const placeholder = () => doc.getElementById("boot-status");
    win.addEventListener(
      "error",
      (e) => {
        const t = e.target;
        if (t && t.tagName === "SCRIPT") {
          if (!state.failedScript) {
            state.failedScript = t.src || "the page's script";
            if (!t.src || state.protocol === "file:") state.probe = { status: 0, type: "" };
            else
              fetch(t.src, { method: "HEAD", cache: "no-store" }).then(
                (r) => (state.probe = { status: r.status, type: r.headers.get("content-type") || "" }),
                () => (state.probe = { status: 0, type: "" }),
              );
          }
        } else if (e.message && !state.pageError) state.pageError = e.message;
      },
      true,
    );
    doc.addEventListener("securitypolicyviolation", (e) => {
      if (/^(script-src|default-src)/.test(e.effectiveDirective || e.violatedDirective || ""))
        state.cspBlocked.push(e.blockedURI || "a script");
    });
    win.addEventListener("load", () => (state.loaded = true));
    let timer = 0;
    const look = () => {
      const p = placeholder();
      // This script runs, so it will speak: the no-script advice (index.html's .boot-late) is not needed.
      p?.querySelector(".boot-late")?.remove();
      state.mounted = !p && doc.readyState !== "loading";
      state.elapsedMs = Date.now() - start;
      const d = decide(state);
      if (state.mounted || (d && p)) win.clearInterval(timer);
      if (d && p) show(doc, p, d, win.location.href);
    };
    timer = win.setInterval(look, POLL_MS);
    doc.addEventListener("DOMContentLoaded", look);
  }

  globalThis.rlhfBootCheck = { decide, message, missingSlash, STUCK_MS };
  if (typeof window !== "undefined" && typeof document !== "undefined") watch(window, document);
})();
