/**
 * How a page that shows a bpmn-js modeller is bundled for the browser, wherever one is built: the
 * modeller demo (build-modeler-demo.ts), the modeller bench (bench/modeler-build.ts) and the
 * browser tests. bpmn-js's style sheets bring fonts and icons, which go in as data URLs; an
 * example process goes in as text; React-style `process.env.NODE_ENV` checks read production.
 */
import type { BuildOptions } from "esbuild";

/** The options every such page shares; a build adds its entry, output and format. */
export const BROWSER_PAGE: BuildOptions = {
  bundle: true,
  platform: "browser",
  target: "es2022",
  logLevel: "warning",
  loader: {
    ".bpmn": "text",
    ".woff": "dataurl",
    ".woff2": "dataurl",
    ".ttf": "dataurl",
    ".eot": "dataurl",
    ".svg": "dataurl",
  },
  define: { "process.env.NODE_ENV": '"production"' },
};
