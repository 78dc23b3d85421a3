// `npm run device-kit`: pack the headless CLIs for a GPU machine that has no network, no Node and no node_modules
// (the device tool carries at most 64 MiB next to the tracked files). Writes .device-kit.txz (xz; git-ignored):
//   bin/node                                     this Node (an official build links only glibc and libstdc++)
//   cli/lab.mjs, cli/bench.mjs, cli/selftest.mjs   the CLIs bundled by Vite (shaders, book text, TF.js inlined)
//   node_modules/webgpu                          its loader and the linux-x64 dawn.node only
//   node_modules/onnxruntime-web                 its Node build and the wasm it loads (proxy reward models),
//                                                with onnxruntime-common's ESM build
//   debs/*.deb                                   the Vulkan loader Dawn needs and the GL dispatch libraries
//                                                (unpacked with dpkg -x there)
// There: unpack it to /tmp/kit, then from the repo root (the CLIs read public/models):
//   /tmp/kit/bin/node /tmp/kit/cli/lab.mjs lesson … | … cli/bench.mjs --json | … cli/selftest.mjs
// scripts/device-evidence.sh does exactly that. Measured: 29 MiB (node 21, dawn.node 5, the rest 3), with 33 MiB
// tracked (2026-12-04).
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { build } from "vite";

const KIT = ".device-kit";
rmSync(KIT, { recursive: true, force: true });

await build({
  configFile: false,
  publicDir: false,
  logLevel: "warn",
  build: {
    ssr: true,
    outDir: join(KIT, "cli"),
    target: "node20",
    minify: true,
    rollupOptions: {
      input: {
        lab: "cli/lab.ts",
        bench: "cli/bench.ts",
        selftest: "cli/selftest.ts",
        "train-rm": "scripts/train-rm.ts",
      },
      external: ["webgpu", "onnxruntime-web", /^node:/],
      output: { format: "esm", entryFileNames: "[name].mjs" },
    },
  },
  ssr: { noExternal: true, external: ["webgpu", "onnxruntime-web"] },
});

// bench's TF.js peer registers a resolve hook from beside itself (cli/bench/tfjs-gpt.ts): in the bundle that is
// the chunk under cli/assets/ that holds it (without it bench stops with ERR_MODULE_NOT_FOUND, seen 2026-12-04).
for (const dir of ["cli", "cli/assets"])
  copyFileSync("cli/bench/tfjs-grad-hooks.mjs", join(KIT, dir, "tfjs-grad-hooks.mjs"));

/** Copy node_modules/<pkg>/<file> into the kit. */
function take(pkg, file) {
  const to = join(KIT, "node_modules", pkg, file);
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(join("node_modules", pkg, file), to);
}
for (const f of ["package.json", "index.js", "dist/linux-x64/dawn.node"]) take("webgpu", f);
const ortDist = readdirSync("node_modules/onnxruntime-web/dist");
take("onnxruntime-web", "package.json");
for (const f of ortDist)
  if (/^ort\.node\.min\.mjs$|^ort-wasm-simd-threaded\.(mjs|wasm)$/.test(f))
    take("onnxruntime-web", `dist/${f}`);

// onnxruntime-web's Node build imports onnxruntime-common (its ESM build: package.json and dist/esm).
take("onnxruntime-common", "package.json");
const walk = (dir) =>
  readdirSync(join("node_modules", dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
for (const f of walk("onnxruntime-common/dist/esm"))
  take("onnxruntime-common", f.slice("onnxruntime-common/".length));

mkdirSync(join(KIT, "bin"), { recursive: true });
// Stripped of its symbols where binutils' strip exists: 2 MiB less in the kit (what travels beside the tracked
// files is capped at 64 MiB, and the repo and kit came to 63.6 MiB on 2026-12-04).
try {
  execFileSync("strip", ["-o", join(KIT, "bin", "node"), process.execPath]);
} catch {
  copyFileSync(process.execPath, join(KIT, "bin", "node"));
}
chmodSync(join(KIT, "bin", "node"), 0o755);

mkdirSync(join(KIT, "debs"), { recursive: true });
// The Vulkan loader, and the GL dispatch libraries NVIDIA's Vulkan driver (libGLX_nvidia) links against: the
// device notes (.library/device/README.md) unpack these on that machine.
const debs = ["libvulkan1", "libglvnd0", "libgl1", "libglx0", "libegl1", "libopengl0", "libgles2"];
execFileSync("apt-get", ["download", ...debs], { cwd: join(KIT, "debs"), stdio: "inherit" });

execFileSync("tar", ["cJf", `${KIT}.txz`, "-C", KIT, "."], {
  stdio: "inherit",
  env: { ...process.env, XZ_OPT: "-9 -T0" },
});
const mib = (statSync(`${KIT}.txz`).size / 2 ** 20).toFixed(1);
console.log(`${KIT}.txz: ${mib} MiB (the device tool carries at most 64 MiB with the tracked files)`);
