/**
 * The schemas as editors use them, checked by an editor's own validator: the YAML language server
 * (the one VS Code's YAML extension runs) reads each YAML example's `# yaml-language-server:
 * $schema=` modeline and finds no problem, finds them in a broken copy, and — given the
 * SchemaStore catalog entries of schemas/catalog.json as its schema associations — validates
 * every example by its file name alone, JSON ones included.
 */
import { readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { globSync } from "tinyglobby";
import { TextDocument } from "vscode-languageserver-textdocument";
import yls from "yaml-language-server";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

interface CatalogEntry {
  readonly name: string;
  readonly fileMatch: readonly string[];
  readonly url: string;
}
const catalog = JSON.parse(readFileSync(join(ROOT, "schemas/catalog.json"), "utf8")) as {
  readonly schemas: readonly CatalogEntry[];
};

/** The schema file of a catalog URL: the schema in schemas/ whose `$id` it is. */
const schemaFiles = new Map(
  globSync("schemas/*.schema.json", { cwd: ROOT }).map((file) => {
    const schema = JSON.parse(readFileSync(join(ROOT, file), "utf8")) as { $id: string };
    return [schema.$id, join(ROOT, file)] as const;
  }),
);

function service(associations: boolean) {
  const languageService = yls.getLanguageService({
    // Catalog URLs are served from this repository's schemas/, as SchemaStore would serve them.
    schemaRequestService: (uri: string) => {
      const file = schemaFiles.get(uri) ?? fileURLToPath(uri);
      return Promise.resolve(readFileSync(file, "utf8"));
    },
    workspaceContext: { resolveRelativePath: (path: string, resource: string) => new URL(path, resource).href },
  });
  languageService.configure({
    validate: true,
    completion: false,
    hover: false,
    schemas: associations
      ? catalog.schemas.map((s) => ({ uri: s.url, fileMatch: [...s.fileMatch], name: s.name }))
      : [],
  });
  return languageService;
}

/** Documents are cached by URI and version in the server: each text read gets a version of its own. */
let version = 0;

async function problems(file: string, text: string, associations: boolean): Promise<string[]> {
  const doc = TextDocument.create(pathToFileURL(file).href, "yaml", ++version, text);
  const found = await service(associations).doValidation(doc, false);
  return found.map((d) => `${d.range.start.line + 1}: ${d.message}`);
}

const yamlExamples = globSync("examples/**/*.{agent,tool,policy,policytest}.{yaml,yml}", { cwd: ROOT });
const allExamples = globSync(
  ["examples/**/*.{agent,tool,policy,policytest}.{yaml,yml,json}", "examples/**/agentflow.config.json"],
  { cwd: ROOT },
).filter((file) => !file.includes(".broken."));

describe("editor schemas (the YAML language server)", () => {
  it("finds every catalog URL among the schemas' $id", () => {
    expect(catalog.schemas.map((s) => schemaFiles.has(s.url))).toEqual(catalog.schemas.map(() => true));
  });

  it.each(yamlExamples)("%s names its schema in a modeline and has no problem", async (file) => {
    const text = readFileSync(join(ROOT, file), "utf8");
    expect(text).toMatch(/^# yaml-language-server: \$schema=\S+$/m);
    expect(await problems(join(ROOT, file), text, false)).toEqual([]);
  });

  it("finds the problems of a broken copy through its modeline", async () => {
    const file = join(ROOT, "examples/workflows/contract-review.agent.yaml");
    const broken = readFileSync(file, "utf8").replace(/^kind: AgentWorkflow$/m, "kind: Workflow");
    expect(await problems(file, broken, false)).toEqual(['4: Value must be "AgentWorkflow".']);
  });

  it.each(allExamples)("%s is valid by its file name, through the catalog's fileMatch", async (file) => {
    expect(catalog.schemas.some((s) => s.fileMatch.some((m) => basename(file).endsWith(m.replace("*", ""))))).toBe(true);
    const text = readFileSync(join(ROOT, file), "utf8");
    expect(await problems(join(ROOT, relative(ROOT, join(ROOT, file))), text, true)).toEqual([]);
  });

  it("finds the problems of a JSON document by its file name alone", async () => {
    const file = join(ROOT, "examples/registry/browser-search.tool.json");
    const broken = readFileSync(file, "utf8").replace('"effect": "read"', '"effect": "delete-all"');
    expect(broken).toContain("delete-all");
    expect((await problems(file, broken, true)).length).toBeGreaterThan(0);
  });
});
