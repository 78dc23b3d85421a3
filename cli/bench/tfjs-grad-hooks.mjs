// Node module hook for TF.js's gradient definitions (see registerTfGradients in tfjs-gpt.ts): tfjs-core's Node
// bundle has no gradients, and its ESM build (dist/*.js) imports siblings without extensions ("./gradients",
// which is also a folder), which Node's resolver refuses. Inside tfjs-core/dist only, "./x" → "./x.js".
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const DIST = "/@tensorflow/tfjs-core/dist/";

export async function resolve(specifier, context, nextResolve) {
  const parent = context.parentURL;
  if (
    parent?.startsWith("file:") &&
    parent.includes(DIST) &&
    specifier.startsWith(".") &&
    !specifier.endsWith(".js")
  ) {
    const withExt = new URL(`${specifier}.js`, parent);
    if (existsSync(fileURLToPath(withExt))) return nextResolve(withExt.href, context);
  }
  return nextResolve(specifier, context);
}
