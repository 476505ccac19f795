/**
 * Copies the stylesheets `tsc` does not emit into `dist/` (`agentflow/bpmn-js/style.css`), run by
 * `npm run build` after the compiler.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** Source stylesheets under `src/`, each copied to the same place under `dist/`. */
const STYLES = ["bpmn-js/style.css"];

for (const style of STYLES) {
  const target = join(ROOT, "dist", style);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(join(ROOT, "src", style), target);
}
