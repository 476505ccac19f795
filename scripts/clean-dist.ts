/**
 * Empties `dist/` before `npm run build` writes it, so that the package never ships what an
 * earlier build left behind: the output of a source file since deleted, or the source maps of a
 * build that made them (they point at `src/`, which the package does not ship).
 */
import { rmSync } from "node:fs";

rmSync(new URL("../dist/", import.meta.url), { recursive: true, force: true });
