// Times zpl-renderer-js (zebrash compiled to WASM) over ZPL files, one process,
// the same way benchmarks/render_corpus.py times labelrender.
// Usage: node zpl_renderer_js.mjs WIDTH_MM HEIGHT_MM DPMM FILE.zpl...
// Prints one JSON line: {"ms": [per-label milliseconds], "failed": n}
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(process.env.ZPL_JS_DIR + "/");
const { ready } = require("zpl-renderer-js");
const [widthMm, heightMm, dpmm, ...files] = process.argv.slice(2);
const { api } = await ready;
const ms = [];
let failed = 0;
for (const file of files) {
  const zpl = readFileSync(file, "latin1");
  const start = performance.now();
  try {
    await api.zplToBase64Async(zpl, Number(widthMm), Number(heightMm), Number(dpmm));
    ms.push(performance.now() - start);
  } catch (err) {
    failed += 1;
  }
}
console.log(JSON.stringify({ ms, failed }));
