/**
 * A rule option's policy packs (`policies`): each entry a pack as plain data (what a browser
 * config bundles), a pack already compiled (a host's JavaScript config), or the path of a YAML or
 * JSON pack file, read relative to the working directory when the host is Node.js (bpmnlint's
 * CLI). The plugin is bundled for browsers too, so `node:fs` is never imported: it is asked of
 * the running Node.js, and a browser told a path gets a sentence saying to give the pack as data.
 */
import { canonicalJson } from "../../model/index.js";
import type { CompiledPack } from "../../policy/index.js";
import { duplicatePackProblems } from "../../policy/waiver-packs.js";
import {
  compilePolicyPack,
  formatPolicyProblem,
  PolicyPackError,
  readPolicyPack,
} from "../../policy/index.js";

/** The part of `node:fs` the plugin reads pack files with. */
export interface PackFileSystem {
  readFileSync(path: string, encoding: "utf8"): string;
}

/** The part of Node.js's `process` that hands out `node:fs` without a static import. */
export interface ProcessLike {
  /** Node.js 20.16 and later. */
  readonly getBuiltinModule?: (id: string) => unknown;
  /** The CommonJS main module (bpmnlint's CLI): its `require` loads `node:fs` on older Node.js. */
  readonly mainModule?: { readonly require?: (id: string) => unknown } | undefined;
}

/** What reading the entries gives: the packs, in order, or one line per problem. */
export type PacksRead =
  { readonly packs: readonly CompiledPack[] } | { readonly problems: readonly string[] };

function isFileSystem(value: unknown): value is PackFileSystem {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { readFileSync?: unknown }).readFileSync === "function"
  );
}

/**
 * `node:fs` of the running Node.js, or `undefined` in a browser. `getBuiltinModule` first; on a
 * Node.js older than 20.16 (the package supports Node.js 20) the CommonJS main module's
 * `require`, which bpmnlint's CLI, a CommonJS program, has.
 */
export function nodeFileSystem(proc: ProcessLike | undefined): PackFileSystem | undefined {
  if (proc === undefined) return undefined;
  const fromBuiltin = proc.getBuiltinModule?.("node:fs");
  if (isFileSystem(fromBuiltin)) return fromBuiltin;
  try {
    const required = proc.mainModule?.require?.("fs");
    return isFileSystem(required) ? required : undefined;
  } catch {
    return undefined;
  }
}

/** Node.js's `process`, or `undefined` in a browser (which may still define a `process` shim). */
export function runningProcess(): ProcessLike | undefined {
  return (globalThis as { process?: ProcessLike }).process;
}

/** Whether a value is a pack compiled by `readPolicyPack` or `compilePolicyPack`. */
export function isCompiledPack(value: unknown): value is CompiledPack {
  const pack = value as Partial<CompiledPack> | null;
  return (
    typeof pack === "object" &&
    pack !== null &&
    Array.isArray(pack.processRules) &&
    typeof pack.sha256 === "string"
  );
}

function describe(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : typeof value;
}

/**
 * Packs compiled before, by source and content: bpmn-js-bpmnlint builds its rules anew for every
 * lint pass, after every edit, and each rule names the packs again, while a pack's content
 * rarely changes. Bounded, since a host may lint with ever new packs.
 */
export class PackCache {
  readonly #packs = new Map<string, CompiledPack>();

  /** The pack compiled from `content` (read from `source`), compiling it on a miss. */
  get(source: string, content: unknown, compile: () => CompiledPack | string[]) {
    let key: string | undefined;
    try {
      key = `${source}\u0000${typeof content === "string" ? content : canonicalJson(content)}`;
    } catch {
      // No canonical form (a lone surrogate): compiled without the cache, which then says why.
    }
    const hit = key === undefined ? undefined : this.#packs.get(key);
    if (hit !== undefined) return hit;
    const made = compile();
    if (key !== undefined && !Array.isArray(made)) {
      if (this.#packs.size >= 32) this.#packs.clear();
      this.#packs.set(key, made);
    }
    return made;
  }
}

/** One entry, read and compiled, or its problems (each a full line). */
function readEntry(
  entry: unknown,
  where: string,
  fs: PackFileSystem | undefined,
  cache: PackCache,
): CompiledPack | string[] {
  if (isCompiledPack(entry)) return entry;
  if (typeof entry === "string") {
    if (fs === undefined) {
      return [
        `${where} is the path '${entry}', but this host cannot read files (a browser): give the pack as data`,
      ];
    }
    let text: string;
    try {
      text = fs.readFileSync(entry, "utf8");
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return [`${where}: cannot read the policy pack '${entry}': ${reason}`];
    }
    return cache.get(entry, text, () => {
      const reading = readPolicyPack(text, entry);
      return "pack" in reading ? reading.pack : reading.problems.map(formatPolicyProblem);
    });
  }
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
    return [
      `${where} must be a policy pack (an object) or the path of a pack file (a string), got ${describe(entry)}`,
    ];
  }
  return cache.get(where, entry, () => {
    try {
      return compilePolicyPack(entry, where);
    } catch (error) {
      if (error instanceof PolicyPackError) return error.problems.map(formatPolicyProblem);
      throw error;
    }
  });
}

/**
 * The packs of a `policies` option, or every problem of every entry (`where` names the option,
 * `policies` in a rule's options): a pack that does not compile judges nothing, nor do two packs
 * of one name (either's waivers would waive the other's rules). `fs` reads
 * pack files; `undefined` where there is none (a browser). `cache` keeps what was compiled.
 */
export function readPacks(
  value: unknown,
  where: string,
  fs: PackFileSystem | undefined,
  cache: PackCache = new PackCache(),
): PacksRead {
  if (!Array.isArray(value)) {
    return { problems: [`${where} must be a list of policy packs, got ${describe(value)}`] };
  }
  const packs: CompiledPack[] = [];
  const problems: string[] = [];
  value.forEach((entry: unknown, i) => {
    const read = readEntry(entry, `${where}[${i}]`, fs, cache);
    if (Array.isArray(read)) problems.push(...read);
    else packs.push(read);
  });
  if (problems.length === 0) {
    problems.push(...duplicatePackProblems(packs).map((line) => `${where}: ${line}`));
  }
  return problems.length > 0 ? { problems } : { packs };
}
