/**
 * What Node's bundles (bundle-lib.ts, bundle-cli.ts) do differently from a browser's:
 * dependencies evaluated at their first use instead of at import. A browser bundle (and a host's
 * bundler, which reads tsc's files) keeps the imports as they are.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Plugin } from "esbuild";

/**
 * Dependencies, as the library imports them, whose module bodies run at the first call into them
 * rather than when the library is imported: an import that parses no YAML, compiles no JSON
 * Schema, reads no version range and no condition, and judges no policy does not evaluate yaml,
 * Ajv, semver, lezer-feel's grammar or feelin with its Temporal polyfill. They stay in the
 * bundle: a `require` of a bundled module, CommonJS or ES module, is esbuild's call of its
 * wrapper, made when the deferring module first needs it.
 */
const DEFERRED = [
  "yaml",
  "ajv/dist/2020.js",
  "ajv-formats",
  "semver/functions/parse.js",
  "semver/ranges/valid.js",
  "lezer-feel",
  "feelin",
];

const NAMESPACE = "agentflow-deferred";

/** An export that forwards to `value` once loaded: a plain function, or a proxy of anything else. */
function forwarder(value: unknown, access: string): string | undefined {
  const isPlainFunction =
    typeof value === "function" &&
    !/^class\b/.test(Function.prototype.toString.call(value)) &&
    Object.keys(value).length === 0;
  // Called in loops (yaml's `isMap`, `isPair`): a function call, not a proxy trap, per call.
  if (isPlainFunction) return `function (...args) { return ${access}.apply(this, args); }`;
  if ((typeof value !== "function" && typeof value !== "object") || value === null) {
    return undefined;
  }
  // A class (constructed), a namespace (`CST.isCollection`), an object (lezer-feel's `parser`),
  // a function with properties. A method read through it runs on the real object.
  return `/* @__PURE__ */ new Proxy(function () {}, {
  apply: (_, self, args) => Reflect.apply(${access}, self, args),
  construct: (_, args) => Reflect.construct(${access}, args),
  get: (_, key) => {
    const target = ${access};
    const value = target[key];
    return typeof value === "function" && key !== "prototype" ? value.bind(target) : value;
  },
  has: (_, key) => key in ${access},
})`;
}

/** Whether `file` is an ES module: `.mjs`, or `.js` under a package.json of `"type": "module"`. */
function isModule(file: string): boolean {
  if (file.endsWith(".mjs")) return true;
  if (!file.endsWith(".js")) return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (!existsSync(manifest)) continue;
    return (JSON.parse(readFileSync(manifest, "utf8")) as { type?: unknown }).type === "module";
  }
  return false;
}

/**
 * The deferring module of one dependency: each export a forwarder, its body run on first use.
 * The dependency is loaded here, at build time, only to list its exports and tell functions from
 * the rest: a CommonJS module's `module.exports` is its default export and its members the named
 * ones (as Node imports it), an ES module's namespace is what it says.
 */
async function deferredModule(specifier: string, from: string): Promise<string> {
  const require = createRequire(resolve(from, "package.json"));
  const file = require.resolve(specifier);
  const esm = isModule(file);
  const loaded: unknown = esm
    ? ((await import(pathToFileURL(file).href)) as unknown)
    : (require(specifier) as unknown);
  const lines = [
    "let loaded;",
    `const load = () => (loaded ??= require(${JSON.stringify(specifier)}));`,
  ];
  const members = loaded as Readonly<Record<string, unknown>>;
  const main = esm
    ? "default" in members
      ? forwarder(members.default, "load().default")
      : undefined
    : forwarder(loaded, "load()");
  if (main !== undefined) lines.push(`export default ${main};`);
  // Named exports: a module's exports object's members, or a class's (Ajv's `Ajv2020`).
  if ((typeof loaded === "object" && loaded !== null) || typeof loaded === "function") {
    for (const [name, value] of Object.entries(members)) {
      if (name === "default" || !/^[A-Za-z_$][\w$]*$/.test(name)) continue;
      const exported = forwarder(value, `load()[${JSON.stringify(name)}]`);
      if (exported !== undefined) lines.push(`export const ${name} = ${exported};`);
    }
  }
  return lines.join("\n");
}

/**
 * Defers the evaluation of each dependency of `specifiers` ({@link DEFERRED} by default), resolved
 * from the folder `from`, to its first use.
 */
export function deferredDependencies(
  specifiers: readonly string[] = DEFERRED,
  from = process.cwd(),
): Plugin {
  const wanted = new Set(specifiers);
  return {
    name: "agentflow-deferred-dependencies",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) =>
        // Only agentflow's own imports: a dependency importing another (feelin, lezer-feel) gets
        // the module itself, and the deferring module's own `require` resolves it too.
        !wanted.has(args.path) ||
        args.namespace === NAMESPACE ||
        args.kind === "require-call" ||
        args.importer.includes("/node_modules/")
          ? undefined
          : { path: args.path, namespace: NAMESPACE },
      );
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => ({
        contents: await deferredModule(args.path, from),
        resolveDir: from,
        loader: "js",
      }));
    },
  };
}
