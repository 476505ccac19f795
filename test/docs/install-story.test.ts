/**
 * No document installs or runs agentflow by a registry name (issue 38, item 11): the name
 * `agentflow` on the npm registry is not this project's, so `npm install agentflow`, an alias to
 * it, or an `npx` that may download it would run a stranger's code. The README and every page
 * under docs/ and examples/ is read, prose and code alike, for such commands; and in the shell blocks of each
 * page, in order, an `npx agentflow` run in a folder of the reader's own (after `cd` out of the
 * clone) must follow an install of agentflow from a file, a folder or a git URL.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const repo = new URL("../../", import.meta.url).pathname;

/** Commands that take `agentflow` from a registry by name. */
const BY_NAME: readonly RegExp[] = [
  // npm install agentflow, npm i -D agentflow@1, pnpm add agentflow, yarn add agentflow…
  /\b(?:npm|pnpm|yarn|bun)\s+(?:install|i|add|isntall)\b[^\n`]*?(?<=\s)agentflow(?:@[^\s`]*)?(?=[\s`]|$)/m,
  // an npm alias to the registry's agentflow: bpmnlint-plugin-agentflow@npm:agentflow
  /@npm:agentflow\b/,
  // runners that download what is missing: npx -y agentflow, npx agentflow@1, npx -p agentflow…
  /\bnpx\s+(?:(?:-y|--yes|-p|--package(?:=|\s+))\s*)+agentflow\b/,
  /\bnpx\s+agentflow@/,
  /\bnpm\s+exec\s+(?:--\s+)?agentflow@/,
  /\b(?:pnpm|yarn)\s+dlx\s+agentflow\b/,
  /\bbunx\s+agentflow\b/,
];

/** The markdown pages under a folder. */
function pages(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(repo, dir), { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith(".md")) {
      out.push(relative(repo, join(entry.parentPath, entry.name)));
    }
  }
  return out.sort();
}

/** The lines of a page that take agentflow from a registry by name. */
function byName(text: string): string[] {
  return text.split("\n").filter((line) => BY_NAME.some((pattern) => pattern.test(line)));
}

/** An install of agentflow that names where it comes from: a tarball, a folder or git. */
const FROM_SOURCE =
  /^(?:npm|pnpm|yarn|bun)\s+(?:install|i|add)\b.*\s(?:\.{0,2}\/|~\/|<agentflow>|\S+\.tgz|git\+|github:|https:\/\/\S+\.git)/;

/**
 * The shell commands of a page, in order, that run `npx agentflow` in a folder of the reader's
 * own where agentflow was not installed from its source first. Following `cd`: into the clone
 * (`cd agentflow`, `cd <agentflow>`) the command is the clone's own; anywhere else it is not,
 * until an install from a tarball, a folder or a git URL. Without a `cd`, nothing is assumed.
 */
function unsafeNpx(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/```(?:sh|bash|shell|console)\n([\s\S]*?)```/g)];
  let where: "unknown" | "clone" | "own" = "unknown";
  let installed = false;
  const found: string[] = [];
  for (const [, body] of blocks) {
    for (const line of (body ?? "").split("\n")) {
      const code = line.replace(/\s+#.*$/, "").trim();
      for (const command of code.split(/\s*(?:&&|;|\|\|)\s*/)) {
        const cd = /^cd\s+(\S+)/.exec(command)?.[1];
        if (cd !== undefined) {
          where = cd.includes("agentflow") ? "clone" : "own";
          installed = false;
        } else if (FROM_SOURCE.test(command)) {
          installed = true;
        } else if (/^npx\s+agentflow\b/.test(command) && where === "own" && !installed) {
          found.push(command);
        }
      }
    }
  }
  return found;
}

const ALL = ["README.md", ...pages("docs"), ...pages("examples")];

describe("the install story", () => {
  it("reads every page", () => {
    expect(ALL).toContain("docs/getting-started.md");
    expect(ALL).toContain("docs/modeler.md");
    expect(ALL).toContain("examples/README.md");
  });

  it.each(ALL)("%s installs and runs agentflow by no registry name", (page) => {
    const text = readFileSync(join(repo, page), "utf8");
    expect(byName(text)).toEqual([]);
    expect(unsafeNpx(text)).toEqual([]);
  });

  it("getting started installs from the packed tarball before the first npx in the reader's folder", () => {
    const text = readFileSync(join(repo, "docs/getting-started.md"), "utf8");
    const install = text.indexOf("npm install <agentflow>/agentflow-0.1.0.tgz");
    const own = text.indexOf("cd ~/my-agent");
    const firstRun = text.indexOf("npx agentflow check my-agent.graph.json");
    expect([own >= 0, install > own, firstRun > install]).toEqual([true, true, true]);
  });

  it("catches what the pages used to say", () => {
    expect(byName("```sh\nnpm install agentflow bpmn-js\n```")).toHaveLength(1);
    expect(byName("npm i -D agentflow@0.1.0")).toHaveLength(1);
    expect(
      byName("`npm install --save-dev bpmnlint bpmnlint-plugin-agentflow@npm:agentflow`"),
    ).toHaveLength(1);
    expect(byName("npx -y agentflow check x")).toHaveLength(1);
    expect(byName("npm install ./agentflow-0.1.0.tgz")).toEqual([]);
    expect(byName("npm install ../agentflow/agentflow-0.1.0.tgz bpmn-js")).toEqual([]);
    expect(
      byName("npm install bpmnlint-plugin-agentflow@file:../agentflow/agentflow-0.1.0.tgz"),
    ).toEqual([]);
    const before = [
      "```sh",
      "mkdir -p ~/my-agent/registry && cd ~/my-agent",
      "cp <agentflow>/x.json my-agent.graph.json",
      "```",
      "",
      "```sh",
      "npx agentflow check my-agent.graph.json",
      "```",
    ].join("\n");
    expect(unsafeNpx(before)).toEqual(["npx agentflow check my-agent.graph.json"]);
    const clone =
      "```sh\ngit clone <r> agentflow && cd agentflow\nnpm install\nnpx agentflow gate p.bpmn\n```";
    expect(unsafeNpx(clone)).toEqual([]);
  });
});
