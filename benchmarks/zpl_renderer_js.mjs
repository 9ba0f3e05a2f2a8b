// Times zpl-renderer-js (zebrash compiled to WASM) over ZPL files, one process,
// the same way benchmarks/render_corpus.py times labelrender.
// Usage: node zpl_renderer_js.mjs < manifest.json, where the manifest is
//   {"rounds": N, "labels": [{"file", "width_mm", "height_mm", "dpmm"}, ...]}
// Every label is rendered once to warm up, then N times. Prints one JSON line:
//   {"ms": [[per-round milliseconds] per label], "cpu_ms": [[the same in CPU time
//    of the whole node process: its JIT and GC threads too]], "failed": [files that threw]}
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(process.env.ZPL_JS_DIR + "/");
const { ready } = require("zpl-renderer-js");
const manifest = JSON.parse(readFileSync(0, "utf8"));
const { api } = await ready;
const labels = manifest.labels.map((l) => ({ ...l, zpl: readFileSync(l.file, "latin1") }));
const ms = labels.map(() => []);
const cpuMs = labels.map(() => []);
const failed = new Set();

async function once(label) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await api.zplToBase64Async(label.zpl, label.width_mm, label.height_mm, label.dpmm);
  const took = performance.now() - start;
  const spent = process.cpuUsage(cpu);
  return [took, (spent.user + spent.system) / 1000];
}

for (let round = 0; round <= manifest.rounds; round++) {
  for (const [i, label] of labels.entries()) {
    if (failed.has(label.file)) continue;
    try {
      const [took, cpu] = await once(label);
      if (round > 0) {
        ms[i].push(took);
        cpuMs[i].push(cpu);
      }
    } catch (err) {
      failed.add(label.file);
      ms[i] = [];
      cpuMs[i] = [];
    }
  }
}
console.log(JSON.stringify({ ms, cpu_ms: cpuMs, failed: [...failed] }));
