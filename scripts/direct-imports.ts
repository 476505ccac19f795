/**
 * Node's bundle imports each name from the file that declares it, not through a module's index.
 * esbuild splits chunks by the entries that reach each file, following every import of a file it
 * includes, used or not: the simulator importing one function from the model's index would make
 * a `simulate` call load all that index reaches once another entry uses it (the YAML reader,
 * every schema check). Rewritten to the declaring files (declarations.ts), an entry's chunks hold
 * what it uses. The source keeps importing through the faces (the layering test holds it); this
 * is the bundle's business. The package's files are free of side effects (package.json), so
 * skipping an index changes no evaluation that matters.
 */
import { readFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import type { Plugin } from "esbuild";
import type { Declaration, DeclarationLookup } from "./declarations.js";

/** `import { a, b as c } from "./x.js";` and `export { … } from "./x.js";`, as tsc writes them. */
const STATEMENT = /^(import|export)\s*\{([^}]*)\}\s*from\s*"(\.{1,2}\/[^"]+)";/gm;

/** `./x.js` from `dir`, as an import specifier. */
function specifier(dir: string, file: string): string {
  const path = relative(dir, file);
  return path.startsWith(".") ? path : `./${path}`;
}

/**
 * The text of the built file `file` with its named imports and re-exports of project files taken
 * from where each name is declared. A name the lookup does not know is left as written.
 */
export function directImports(file: string, text: string, lookup: DeclarationLookup): string {
  const dir = dirname(file);
  return text.replace(STATEMENT, (whole, keyword: string, list: string, from: string) => {
    const declarations = lookup(resolve(dir, from));
    if (declarations === undefined) return whole;
    const byFile = new Map<string, string[]>();
    for (const item of list.split(",").map((s) => s.trim())) {
      if (item === "") continue;
      const [name = "", alias = name] = item.split(/\s+as\s+/);
      const declared: Declaration = declarations.get(name) ?? {
        file: resolve(dir, from),
        local: name,
      };
      const target = specifier(dir, declared.file);
      const names = byFile.get(target) ?? [];
      names.push(declared.local === alias ? alias : `${declared.local} as ${alias}`);
      byFile.set(target, names);
    }
    return [...byFile]
      .map(([target, names]) => `${keyword} { ${names.join(", ")} } from "${target}";`)
      .join("\n");
  });
}

/** Serves tsc's files in `outDir` (not its bundles in `exclude`) with {@link directImports}. */
export function directImportsPlugin(
  outDir: string,
  exclude: string,
  lookup: DeclarationLookup,
): Plugin {
  const root = `${resolve(outDir)}/`;
  const skipped = `${resolve(exclude)}/`;
  return {
    name: "agentflow-direct-imports",
    setup(build) {
      build.onLoad({ filter: /\.js$/ }, async (args) => {
        if (!args.path.startsWith(root) || args.path.startsWith(skipped)) return undefined;
        const text = await readFile(args.path, "utf8");
        return { contents: directImports(args.path, text, lookup), loader: "js" };
      });
    },
  };
}
