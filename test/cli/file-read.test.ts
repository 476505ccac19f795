/** Reading what a command was given: a file too large to be text is refused by its size. */
import { truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readText } from "../../src/cli/file-read.js";
import { UsageError } from "../../src/cli/io.js";
import { tempDir } from "../temp.js";

describe("readText: a file too large to be text", () => {
  it("is refused by its size, naming it, before any byte is read (a sparse file)", async () => {
    const dir = tempDir("agentflow-files-");
    const big = join(dir, "big.agent.json");
    writeFileSync(big, "");
    truncateSync(big, 600 * 1024 * 1024);
    await expect(readText(big)).rejects.toEqual(
      new UsageError(
        `cannot read '${big}': it is 600 MiB, more than the 512 MiB agentflow reads as text`,
      ),
    );
  });
});
