/**
 * Vite plugins that make `vite build` emit THIRD_PARTY_NOTICES.txt into the output folder: every third-party
 * package whose code is in a chunk (the page's and its workers'), with version, licence and licence text
 * (./notices_text.ts), plus the data notices.
 *
 * Which packages: rollup-plugin-license (npm, pinned) reads, for every module of a rendered chunk, the nearest
 * package.json and that package's LICENSE and NOTICE files. It works under Vite 8's bundler, Rolldown, through
 * the two hooks it uses (renderChunk, generateBundle). We give it a callback instead of its file output
 * (which writes to a fixed path, not to --outDir) and emit the file as an asset ourselves.
 *
 * Workers are bundled by builds of their own, each with `worker.plugins`, before the page's chunks are
 * rendered: both plugins share one collection, and the page's plugin writes the file in its generateBundle.
 *
 * Usage (vite.config.ts): `const notices = thirdPartyNotices();` then `plugins: [..., notices.page]` and
 * `worker: { plugins: () => [notices.worker()] }`. Build only (`apply: "build"`): `vite` (dev) emits nothing.
 */
import license from "rollup-plugin-license";
import type { Plugin } from "vite";
import { NOTICES_FILE, type NoticePackage, noticesText } from "./notices_text.ts";

/** The hooks of rollup-plugin-license's plugin that we call (its whole plugin: name plus these two). */
interface LicenseHooks {
  renderChunk(this: unknown, code: string, chunk: unknown, options: unknown): unknown;
  generateBundle(this: unknown): void;
}

/** One rollup-plugin-license instance adding what it finds to `found`. */
function scanner(found: Map<string, NoticePackage>): LicenseHooks {
  const plugin = license({
    sourcemap: false,
    thirdParty: (packages) => {
      for (const p of packages) found.set(`${p.name}@${p.version}`, p);
    },
  });
  return plugin as unknown as LicenseHooks;
}

/** A Vite plugin that scans its build's chunks (renderChunk leaves the code as it is). */
function scanning(name: string, found: Map<string, NoticePackage>): Plugin & { scan: LicenseHooks } {
  const scan = scanner(found);
  return {
    name,
    apply: "build",
    scan,
    renderChunk(code, chunk, options) {
      scan.renderChunk.call(this, code, chunk, options);
      return null;
    },
  };
}

/**
 * The two plugins: `page` for the page's build (emits the file), `worker()` for each worker build (a new
 * instance per call, as `worker.plugins` wants). The file lists what all of them found.
 */
export function thirdPartyNotices(): { page: Plugin; worker: () => Plugin } {
  const found = new Map<string, NoticePackage>();
  const page = scanning("third-party-notices", found);
  page.generateBundle = function () {
    page.scan.generateBundle.call(this);
    this.emitFile({ type: "asset", fileName: NOTICES_FILE, source: noticesText([...found.values()]) });
  };
  const worker = (): Plugin => {
    const w = scanning("third-party-notices-worker", found);
    w.generateBundle = function () {
      w.scan.generateBundle.call(this);
    };
    return w;
  };
  return { page, worker };
}
