/**
 * Collecting the inputs fails closed: a folder below them that cannot be listed, walked or
 * entered by a glob, is among the files, and reading it says why, so that `check` and `gate`
 * report it as unreadable (`FILE_UNREADABLE`, exit 2) instead of passing over what it holds.
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readText } from "../../src/cli/file-read.js";
import { collectFiles } from "../../src/cli/files.js";
import { UsageError } from "../../src/cli/io.js";
import { tempDir } from "../temp.js";
import { CAN_BE_DENIED, denied } from "./unprivileged.js";

/** A folder others may enter: `wf/a.json`, `wf/sub/b.json`, and `op/sub/c.bpmn`. */
function tree(): string {
  const dir = tempDir("agentflow-files-");
  for (const folder of ["wf", "wf/sub", "op", "op/sub"]) mkdirSync(join(dir, folder));
  writeFileSync(join(dir, "wf", "a.json"), "{}");
  writeFileSync(join(dir, "wf", "sub", "b.json"), "{}");
  writeFileSync(join(dir, "op", "sub", "c.bpmn"), "<x/>");
  for (const folder of ["", "wf", "wf/sub", "op", "op/sub"]) chmodSync(join(dir, folder), 0o755);
  return dir;
}

describe.skipIf(!CAN_BE_DENIED)("collectFiles: a folder that cannot be listed", () => {
  it("a walk lists it among the files, and reading it says permission denied", async () => {
    const dir = tree();
    const sub = join(dir, "wf", "sub");
    const { collected, read } = await denied([sub], async () => ({
      collected: await collectFiles([join(dir, "wf")]),
      read: await readText(sub).catch((error: unknown) => error),
    }));
    expect(collected).toEqual({ files: [join(dir, "wf", "a.json"), sub], skipped: [] });
    expect(read).toEqual(new UsageError(`cannot read '${sub}': permission denied`));
  });

  it("a folder holding only such a folder gives it, not 'holds no .bpmn file'", async () => {
    const dir = tree();
    const sub = join(dir, "op", "sub");
    const collected = await denied([sub], () =>
      collectFiles([join(dir, "op")], { onlyProcesses: true }),
    );
    expect(collected).toEqual({ files: [sub], skipped: [] });
  });

  it("a glob that enters it lists it, relative or absolute; one that does not enter it does not", async () => {
    const dir = tree();
    const sub = join(dir, "wf", "sub");
    const [relative, absolute, shallow, ignored] = await denied([sub], () =>
      Promise.all([
        collectFiles(["wf/**/*.json"], { cwd: dir }),
        // The cwd is `dir`: as nobody, the checkout the suite runs in may not be readable.
        collectFiles([`${dir}/wf/**/*.json`], { cwd: dir }),
        collectFiles(["wf/*.json"], { cwd: dir }),
        collectFiles(["wf/**/*.json"], { cwd: dir, ignored: (path) => path === "wf/sub" }),
      ]),
    );
    expect(relative).toEqual({ files: ["wf/a.json", "wf/sub"], skipped: [] });
    expect(absolute).toEqual({ files: [join(dir, "wf", "a.json"), sub], skipped: [] });
    expect(shallow).toEqual({ files: ["wf/a.json"], skipped: [] });
    expect(ignored).toEqual({ files: ["wf/a.json"], skipped: [] });
  });

  it("a link that cannot be followed for lack of permission is listed, whatever its name", async () => {
    const dir = tree();
    const sub = join(dir, "wf", "sub");
    symlinkSync(join(sub, "b.json"), join(dir, "wf", "linked"));
    const collected = await denied([sub], () => collectFiles([join(dir, "wf")]));
    expect(collected).toEqual({
      files: [join(dir, "wf", "a.json"), join(dir, "wf", "linked"), sub],
      skipped: [],
    });
  });
});

describe.skipIf(!CAN_BE_DENIED)(
  "collectFiles: a glob's link into a folder that cannot be entered",
  () => {
    it("lists the link where the pattern may reach it, as a file or as a folder, and reading it says why", async () => {
      const dir = tree();
      const sub = join(dir, "op", "sub");
      writeFileSync(join(sub, "d.json"), "{}");
      symlinkSync(join(sub, "d.json"), join(dir, "wf", "linked.json"));
      symlinkSync(join(sub, "d.json"), join(dir, "wf", "linked.txt"));
      symlinkSync(sub, join(dir, "wf", "linked-folder"));
      const [file, deep, absolute, other, read] = await denied([sub], () =>
        Promise.all([
          collectFiles(["wf/*.json"], { cwd: dir }),
          collectFiles(["wf/**/*.json"], { cwd: dir }),
          collectFiles([`${dir}/wf/*.json`], { cwd: dir }),
          collectFiles(["wf/sub/*.json"], { cwd: dir }),
          readText(join(dir, "wf", "linked.json")).catch((error: unknown) => error),
        ]),
      );
      expect(file).toEqual({ files: ["wf/a.json", "wf/linked.json"], skipped: [] });
      // Under `**` any link may be a folder holding matches: what it points to cannot be told.
      expect(deep).toEqual({
        files: [
          "wf/a.json",
          "wf/linked-folder",
          "wf/linked.json",
          "wf/linked.txt",
          "wf/sub/b.json",
        ],
        skipped: [],
      });
      expect(absolute).toEqual({
        files: [join(dir, "wf", "a.json"), join(dir, "wf", "linked.json")],
        skipped: [],
      });
      expect(other).toEqual({ files: ["wf/sub/b.json"], skipped: [] });
      expect(read).toEqual(
        new UsageError(`cannot read '${join(dir, "wf", "linked.json")}': permission denied`),
      );
    });
  },
);

describe("collectFiles: paths passed over", () => {
  it("a broken link is skipped unread, a folder reached again is skipped as read already", async () => {
    const dir = tree();
    symlinkSync(join(dir, "nowhere.json"), join(dir, "wf", "broken.json"));
    symlinkSync(join(dir, "wf", "sub"), join(dir, "wf", "zz-again"), "dir");
    const collected = await collectFiles([join(dir, "wf")]);
    expect(collected).toEqual({
      files: [join(dir, "wf", "a.json"), join(dir, "wf", "sub", "b.json")],
      skipped: [
        { path: join(dir, "wf", "broken.json"), reason: "a broken symbolic link", unread: true },
        {
          path: join(dir, "wf", "zz-again"),
          reason: `the same folder as '${join(dir, "wf", "sub")}', read already`,
          unread: false,
        },
      ],
    });
  });

  it("reading a folder that can be listed says it is a directory", async () => {
    const dir = tree();
    await expect(readText(join(dir, "wf"))).rejects.toEqual(
      new UsageError(`cannot read '${join(dir, "wf")}': it is a directory, not a regular file`),
    );
  });
});
