/**
 * Node's bundles: a CommonJS dependency deferred by `deferredDependencies` runs its module body at
 * the first call into it, not at import, and then behaves as itself (functions, classes,
 * namespaces, a default export).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { deferredDependencies } from "../../scripts/node-build.js";
import { tempDir } from "../temp.js";

const FAKE = `globalThis.fakeEvaluations = (globalThis.fakeEvaluations ?? 0) + 1;
class Counter { constructor(start) { this.value = start; } static zero() { return new Counter(0); } }
function double(n) { return n * 2; }
module.exports = { Counter, double, ns: { triple: (n) => n * 3 } };
`;
const FAKE_DEFAULT = `globalThis.fakeDefaultEvaluations = (globalThis.fakeDefaultEvaluations ?? 0) + 1;
module.exports = function plugin(x) { return "plugged " + x; };
module.exports.default = module.exports;
`;

declare global {
  var fakeEvaluations: number | undefined;
  var fakeDefaultEvaluations: number | undefined;
}

type Plugins = NonNullable<Parameters<typeof build>[0]["plugins"]>;

/** Bundles `entry` into `dir` and gives the file's URL. */
async function bundle(dir: string, entry: string, plugins: Plugins): Promise<string> {
  const outfile = join(dir, "out.mjs");
  await build({
    stdin: { contents: entry, resolveDir: dir, loader: "js" },
    bundle: true,
    format: "esm",
    platform: "node",
    outfile,
    logLevel: "error",
    plugins,
  });
  return pathToFileURL(outfile).href;
}

const load = async (url: string) =>
  (await import(url)) as Readonly<Record<string, ((...args: unknown[]) => unknown) | undefined>>;

describe("deferredDependencies", () => {
  it("runs a dependency's body at its first use, once, and forwards every kind of export", async () => {
    const dir = tempDir("agentflow-deferred-");
    writeFileSync(join(dir, "package.json"), '{ "name": "host", "type": "module" }');
    for (const [name, body] of [
      ["fake-cjs", FAKE],
      ["fake-default", FAKE_DEFAULT],
    ] as const) {
      mkdirSync(join(dir, "node_modules", name), { recursive: true });
      writeFileSync(join(dir, "node_modules", name, "package.json"), `{ "name": "${name}" }`);
      writeFileSync(join(dir, "node_modules", name, "index.js"), body);
    }
    const entry = `import { Counter, double, ns } from "fake-cjs";
import plugin from "fake-default";
export const make = (n) => new Counter(n).value;
export const zero = () => Counter.zero().value;
export const twice = (n) => double(n);
export const thrice = (n) => ns.triple(n);
export const plug = (x) => plugin.default(x);
export const isCounter = (n) => new Counter(n) instanceof Counter;`;
    const url = await bundle(dir, entry, [deferredDependencies(["fake-cjs", "fake-default"], dir)]);
    // The build itself loads each dependency once, to list its exports.
    globalThis.fakeEvaluations = undefined;
    globalThis.fakeDefaultEvaluations = undefined;
    const m = await load(url);
    expect(globalThis.fakeEvaluations).toBeUndefined();
    expect(m.twice?.(21)).toBe(42);
    expect(globalThis.fakeEvaluations).toBe(1);
    expect(m.make?.(5)).toBe(5);
    expect(m.zero?.()).toBe(0);
    expect(m.thrice?.(2)).toBe(6);
    expect(globalThis.fakeEvaluations).toBe(1);
    expect(globalThis.fakeDefaultEvaluations).toBeUndefined();
    expect(m.plug?.("in")).toBe("plugged in");
    expect(globalThis.fakeDefaultEvaluations).toBe(1);
    // The forwarder hands out the class's own prototype, so `instanceof` holds.
    expect(m.isCounter?.(1)).toBe(true);
  });
});
