/**
 * The identity of every document is unchanged by the move to @noble/hashes and one fallback
 * writer: content hashes (recorded in approvals and reports) and file digests of examples/, and
 * the hashes of values that take each writer's path, match the digests recorded before the move
 * (digests.golden.json, written by the former implementation).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { contentHash } from "../../../src/model/canonical/json.js";
import { sha256Bytes, sha256BytesPortable } from "../../../src/model/canonical/sha256.js";
import { BUILT, exampleBytes, exampleFiles, exampleValue } from "./golden-values.js";

interface Golden {
  readonly contentHash: Readonly<Record<string, string>>;
  readonly fileBytes: Readonly<Record<string, string>>;
  readonly built: Readonly<Record<string, string>>;
}

const golden = JSON.parse(
  readFileSync(new URL("./digests.golden.json", import.meta.url), "utf8"),
) as Golden;

describe("digests recorded before the move", () => {
  it("cover every example file", () => {
    expect(Object.keys(golden.contentHash)).toEqual(exampleFiles());
  });

  it.each(exampleFiles())("%s has the same content hash and file digest", (file) => {
    expect(contentHash(exampleValue(file))).toBe(golden.contentHash[file]);
    const bytes = exampleBytes(file);
    expect("sha256:" + sha256Bytes(bytes)).toBe(golden.fileBytes[file]);
    expect("sha256:" + sha256BytesPortable(bytes)).toBe(golden.fileBytes[file]);
  });

  it.each(BUILT.map(([name, make]) => [name, make] as const))(
    "%s has the same content hash",
    (name, make) => {
      expect(contentHash(make())).toBe(golden.built[name]);
    },
  );
});
