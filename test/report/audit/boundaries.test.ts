import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The process picture's folder is a room: the audit report reaches it through its index only.
const AUDIT = join(import.meta.dirname, "../../../src/report/audit");

describe("the audit report's imports of process/", () => {
  it("go through process/index.js", () => {
    const deep: string[] = [];
    for (const file of readdirSync(AUDIT)
      .filter((f) => f.endsWith(".ts"))
      .sort()) {
      const text = readFileSync(join(AUDIT, file), "utf8");
      for (const m of text.matchAll(/from "\.\/process\/([^"]+)"/g)) {
        if (m[1] !== "index.js") deep.push(`${file} → ./process/${m[1] ?? ""}`);
      }
    }
    expect(deep).toEqual([]);
  });
});
