// What each changed (or staged) file is to agentflow, for action/run.sh and the pre-commit hook
// (action/pre-commit-check.sh): whether the command takes it itself, or the config's ignores pass
// over it, or the settings read it. Compared by real path as well as by name, so that a
// registry document reached through a symbolic link (a contract linked into the registry
// folder, a registry folder that is itself a link) counts as the registry's.
//
// Usage: node narrow.js <check|gate> <agentflow package folder> <print-config JSON file>
// The files come on stdin, NUL-separated, relative to the working directory (the repository
// root); each comes out as `<class>\0<file>\0`:
//   other     not a file the command takes: a README, package.json, a lock file, a dot-file…
//   ignored   passed over by the config's `ignores` (a walk would not read it)
//   registry  under a registry folder, or linked from one
//   policy    a policy pack the config names
//   config    a file the config's `extends` names
//   plugin    in a plugin module's folder
//   waived    a process, while a waiver names processes by id: another file may define the same
//             id, and only a run over both finds the waiver ambiguous (src/cli/gate-waivers.ts)
//   take      none of these: a document (check) or a process (gate) to check by name
// Anything it cannot decide (a path that does not resolve, settings it cannot read) is exit 2
// with the reason on stderr: run.sh then checks the whole repository, and the hook fails.
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";

const [command, agentflow, printed] = process.argv.slice(2);

// Files of the project's tooling, not documents: a change to one (a dependency bump) may change a
// plugin or a shared config, so every verdict; never checked by name.
const TOOLING = new Set([
  "package.json",
  "package-lock.json",
  "npm-shrinkwrap.json",
  "pnpm-lock.yaml",
  "pnpm-workspace.yaml",
  "agentflow.config.json",
]);

/** Set from agentflow's dist before any file is sorted. */
let isDocumentName;
let isProcessName;

/**
 * True when the command reads `file` itself, as a walk of the repository would find it, except
 * the tooling files: a walk reads those unless `ignores` names them, but they are never agent
 * documents (the Action checks the whole repository for them; the hook leaves them).
 */
function takes(file) {
  const parts = file.split("/");
  // A walk passes over dot-folders and node_modules. It reads a dot-file as the same file
  // without the dot; a changed one is still "other" here: the Action then checks the whole
  // repository, which reads it, and the hook passes it over, as most staged dot-files are other
  // tools' settings (.pre-commit-config.yaml) that `ignores` would have to name (docs/ci.md).
  if (parts.some((p) => p.startsWith(".") || p === "node_modules")) return false;
  const name = basename(file);
  if (TOOLING.has(name)) return false;
  if (isProcessName(name)) return true;
  // The walk's own choice of documents (src/cli/files.ts): fixtures and the config are not.
  return command !== "gate" && isDocumentName(name);
}

/** `path` is `root` or lies below it (both absolute). */
function within(path, root) {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !rel.startsWith(sep));
}

/**
 * The real paths of the files and folders below `root`, links followed (each real folder once),
 * as a registry read follows them: a document linked in from elsewhere is the registry's too.
 */
function realTree(root, files, folders) {
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop();
    const real = realpathSync(dir);
    if (folders.has(real)) continue;
    folders.add(real);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === ".git" || entry.name === "node_modules") continue;
      const path = resolve(dir, entry.name);
      let info;
      try {
        info = statSync(path);
      } catch {
        continue; // A broken link leads to no file.
      }
      if (info.isDirectory()) stack.push(path);
      else files.add(realpathSync(path));
    }
  }
}

const cwd = process.cwd();

/**
 * What the settings read, by name and by real path: exact files (the config chain, the packs),
 * whole folders (the registry, the plugins' folders) and every real file below those folders.
 */
function settingsReads(settings) {
  const read = { files: new Map(), folders: [], all: undefined };
  const addFile = (path, kind) => {
    const abs = resolve(cwd, path);
    read.files.set(abs, kind);
    read.files.set(realpathSync(abs), kind);
  };
  const addFolder = (path, kind) => {
    const abs = resolve(cwd, path);
    const real = realpathSync(abs);
    // The working directory or above it: every file is read by the settings.
    if (within(cwd, abs) || within(realpathSync(cwd), real)) {
      read.all ??= kind;
      return;
    }
    const files = new Set();
    const folders = new Set();
    realTree(abs, files, folders);
    read.folders.push({ kind, roots: [abs, real, ...folders] });
    for (const file of files) read.files.set(file, kind);
  };
  for (const folder of settings.registry ?? []) addFolder(folder, "registry");
  for (const { file } of settings.configChain ?? []) addFile(file, "config");
  for (const pack of settings.policies ?? []) {
    addFile(typeof pack === "string" ? pack : pack.file, "policy");
  }
  for (const { file } of settings.plugins ?? []) addFolder(dirname(file), "plugin");
  return read;
}

/** The settings' reading that `file` is part of (its name or its real path), if any. */
function readBy(read, file) {
  const abs = resolve(cwd, file);
  for (const name of [abs, realpathSync(abs)]) {
    const kind = read.files.get(name);
    if (kind !== undefined) return kind;
    for (const { kind: folder, roots } of read.folders) {
      if (roots.some((root) => within(name, root))) return folder;
    }
  }
  return read.all;
}

/**
 * The config's ignore test: agentflow's own (`dist/cli/ignore.js` of the package run), so that
 * the hook and the Action pass over exactly what a walk of `check` passes over.
 */
async function ignoreTestOf(settings) {
  const { ignoreTest } = await import(
    pathToFileURL(join(agentflow, "dist", "cli", "ignore.js")).href
  );
  return ignoreTest(settings.ignores ?? [], cwd) ?? (() => false);
}

try {
  // The walk's own choice of files (`dist/cli/files.js`), not a copy of it.
  ({ isDocumentName, isProcessName } = await import(
    pathToFileURL(join(agentflow, "dist", "cli", "files.js")).href
  ));
  const settings = JSON.parse(readFileSync(printed, "utf8"));
  const read = settingsReads(settings);
  const ignored = await ignoreTestOf(settings);
  // The config's waivers and the packs' (what --print-config prints).
  const processWaived = (settings.waivers ?? []).some((w) => typeof w?.process === "string");
  const out = [];
  for (const file of readFileSync(0, "utf8").split("\0")) {
    if (file === "") continue;
    // Read by the settings first, whatever its name and whatever the ignores say: the registry,
    // the config, a pack or a plugin is read for every verdict (the hook then checks the whole
    // repository, as the Action does), and `agentflow.config.json` is the config.
    let kind = readBy(read, file) ?? (!takes(file) ? "other" : ignored(file) ? "ignored" : "take");
    if (kind === "take" && processWaived && isProcessName(basename(file))) kind = "waived";
    out.push(`${kind}\0${file}\0`);
  }
  process.stdout.write(out.join(""));
} catch (error) {
  // Undecided: the caller checks everything (run.sh) or fails (the hook), never narrows.
  process.stderr.write(`agentflow: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
}
