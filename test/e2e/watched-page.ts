/**
 * A page opened in a fresh headless Chromium with what a test checks after it: the errors the
 * page logged or threw, and every URL the browser requested (a report or demo must fetch nothing).
 */
import type { BrowserContext, Page } from "playwright-core";
import { chromium } from "playwright-core";
import { tempDir } from "../temp.js";
import { ARGS, CHROMIUM } from "./chromium.js";

/** The opened page, its context (the caller closes it) and what was seen while it ran. */
export interface WatchedPage {
  readonly context: BrowserContext;
  readonly tab: Page;
  /** Console errors and uncaught exceptions, in order. */
  readonly errors: string[];
  /** Every request of any page or worker of the context. */
  readonly requests: string[];
}

/** A viewport's size in pixels. */
export interface Viewport {
  readonly width: number;
  readonly height: number;
}

/** The headless Chromium, in a fresh profile (removed with the test file's folders). */
export function launchChromium(viewport: Viewport): Promise<BrowserContext> {
  return chromium.launchPersistentContext(tempDir("agentflow-e2e-"), {
    executablePath: CHROMIUM,
    args: ARGS,
    viewport,
  });
}

/** Opens `url` in a fresh profile at the given viewport and waits for its `load` event. */
export async function openWatched(url: string, viewport: Viewport): Promise<WatchedPage> {
  const context = await launchChromium(viewport);
  const errors: string[] = [];
  const requests: string[] = [];
  // On the context, so requests of any page or worker it opens are seen too.
  context.on("request", (r) => requests.push(r.url()));
  context.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  try {
    const tab = context.pages()[0] ?? (await context.newPage());
    tab.on("pageerror", (e) => errors.push(e.message));
    await tab.goto(url, { waitUntil: "load" });
    return { context, tab, errors, requests };
  } catch (error) {
    await context.close();
    throw error;
  }
}
