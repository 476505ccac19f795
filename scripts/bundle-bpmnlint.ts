/**
 * Bundles the bpmnlint plugin (`dist/bpmn/lint/index.js` and everything it imports) into one
 * CommonJS file, `dist/bpmnlint-plugin.cjs`, which `bpmnlint-plugin/load.js` requires. bpmnlint
 * require()s plugins, and bundlers of bpmnlint configs (`bpmnlint-pack-config`, on rollup 2)
 * cannot read what the ES module build reaches: Ajv's `require("./refs/data.json")` needs a JSON
 * plugin they do not have. esbuild inlines JSON and turns ES modules into CommonJS, so the
 * bundle loads on any Node.js 20 and packs with any bundler. Run by `npm run build`, after tsc.
 */
import { build } from "esbuild";

await build({
  entryPoints: [new URL("../dist/bpmn/lint/index.js", import.meta.url).pathname],
  outfile: new URL("../dist/bpmnlint-plugin.cjs", import.meta.url).pathname,
  bundle: true,
  format: "cjs",
  // The core imports nothing from node: (test/package.test.ts), so the bundle runs in a browser too.
  platform: "neutral",
  mainFields: ["module", "main"],
  target: "node20",
  legalComments: "inline",
  logLevel: "warning",
});
