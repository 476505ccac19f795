/**
 * The headless Chromium every browser test launches: Debian's package (or CHROMIUM_PATH), with
 * the flags this machine's closed network needs (no background requests, no QUIC), and where
 * the tests leave their pages and, when asked, screenshots for a person to see.
 */
import { existsSync, mkdirSync } from "node:fs";
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

/**
 * Whether the tests leave screenshots (`AGENTFLOW_SCREENSHOTS=1`). They are for a person to look
 * at, and no test reads them; a full-page capture of a report is seconds of CPU, which every
 * `npm test` would pay for pictures nobody asked for.
 */
export const SCREENSHOTS = process.env.AGENTFLOW_SCREENSHOTS === "1";

/** What can be captured: a page, or one element of it. */
interface Capturable {
  screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>;
}

/** Leaves a screenshot of `target` in {@link ARTIFACTS} as `name` when {@link SCREENSHOTS}. */
export async function leaveScreenshot(
  target: Capturable,
  name: string,
  options: { readonly fullPage?: boolean } = {},
): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  await target.screenshot({ path: join(ARTIFACTS, name), ...options });
}

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
