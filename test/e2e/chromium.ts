/**
 * The headless Chromium every browser test launches: Debian's package (or CHROMIUM_PATH), with
 * the flags this machine's closed network needs (no background requests, no QUIC), and where
 * the tests leave their screenshots for a person to see.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root folder. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The Chromium binary. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Whether it is installed; the tests skip with a name that says how to install it when not. */
export const HAS_CHROMIUM = existsSync(CHROMIUM);

/** Where screenshots and pages are left. */
export const ARTIFACTS = join(ROOT, ".artifacts");

/** The launch flags. */
export const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
