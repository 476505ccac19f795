import { readFileSync } from "node:fs";

/** agentflow's version, from its package.json (read when asked, not when loaded). */
export function packageVersion(): string {
  const raw = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  return (JSON.parse(raw) as { version: string }).version;
}
