// Times zpl-renderer-js (zebrash compiled to WASM) over ZPL files, one process,
// the same way benchmarks/render_corpus.py times labelrender.
// Usage: node zpl_renderer_js.mjs < manifest.json, where the manifest is
//   {"rounds": N, "labels": [{"file", "width_mm", "height_mm", "dpmm"}, ...]}
// Every label is rendered once to warm up, then N times. Prints one JSON line:
//   {"ms": [[per-round milliseconds] per label], "failed": [files that threw]}
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(process.env.ZPL_JS_DIR + "/");
const { ready } = require("zpl-renderer-js");
const manifest = JSON.parse(readFileSync(0, "utf8"));
const { api } = await ready;
const labels = manifest.labels.map((l) => ({ ...l, zpl: readFileSync(l.file, "latin1") }));
const ms = labels.map(() => []);
const failed = new Set();

async function once(label) {
  const start = performance.now();
  await api.zplToBase64Async(label.zpl, label.width_mm, label.height_mm, label.dpmm);
  return performance.now() - start;
}

for (let round = 0; round <= manifest.rounds; round++) {
  for (const [i, label] of labels.entries()) {
    if (failed.has(label.file)) continue;
    try {
      const took = await once(label);
      if (round > 0) ms[i].push(took);
    } catch (err) {
      failed.add(label.file);
      ms[i] = [];
    }
  }
}
console.log(JSON.stringify({ ms, failed: [...failed] }));
