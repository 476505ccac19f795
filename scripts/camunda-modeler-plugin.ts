/**
 * Builds agentflow's Camunda Desktop Modeler plug-in folder (`camunda-modeler/` in the package),
 * which a user copies to `<Modeler>/resources/plugins/agentflow/` (docs/camunda-modeler.md):
 *
 * - `index.js`, the manifest the Modeler's main process `require()`s (`name`, `script`), with a
 *   `package.json` marking the folder CommonJS wherever it is copied;
 * - `client.js`, `src/camunda-modeler/index.ts` bundled into one classic script (an IIFE): the
 *   Modeler loads it with a `<script>` tag, not as a module, so nothing may be fetched later.
 *   The properties panel (`@bpmn-io/properties-panel` with its preact hooks, and
 *   `bpmn-js-properties-panel`) is the Modeler's own, read from `window.vendor` through
 *   camunda-modeler-plugin-helpers' vendor files: a second copy would render the group with
 *   another preact and another `useService` context, and show nothing;
 * - `element-templates/`, the Camunda 8 element templates from `src/camunda-modeler/`.
 *
 * The Modeler's window forbids generated code (`script-src 'self'`), and Ajv compiles a schema
 * into a function with `new Function`. So the policy pack schema's validator, which compiling
 * a pack needs, is compiled here with Ajv's standalone code, and `src/policy/shape.ts` gets an
 * `Ajv2020` that hands it out for that schema (with the same options) instead of compiling it.
 * Any other schema still compiles at run time, and fails there visibly.
 *
 * `bundle-camunda-modeler.ts` (run by `npm run build`) builds it into `camunda-modeler/`; the
 * plug-in's browser test builds it into a temporary folder, so it always tests the sources.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneModule from "ajv/dist/standalone/index.js";
import { build } from "esbuild";
import { PACK_SCHEMA_AJV_OPTIONS, POLICY_PACK_SCHEMA } from "../src/policy/pack-schema.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const require = createRequire(import.meta.url);
const helpers = dirname(require.resolve("camunda-modeler-plugin-helpers/package.json"));

/** Each shared package, as the Modeler exposes it to plug-ins. */
const VENDOR: Readonly<Record<string, string>> = {
  "@bpmn-io/properties-panel": `${helpers}/vendor/@bpmn-io/properties-panel/index.js`,
  "@bpmn-io/properties-panel/preact/hooks": `${helpers}/vendor/@bpmn-io/properties-panel/preact/hooks.js`,
  "bpmn-js-properties-panel": `${helpers}/vendor/bpmn-js-properties-panel.js`,
};

/** The pack schema's validator as a CommonJS module (Ajv's standalone code). */
function packValidatorCode(): string {
  const ajv = new Ajv2020({ ...PACK_SCHEMA_AJV_OPTIONS, code: { source: true } });
  return standaloneModule.default(ajv, ajv.compile(POLICY_PACK_SCHEMA));
}

/** The `Ajv2020` shape.ts gets: the precompiled validator for the pack schema, else Ajv's own. */
const AJV_SHIM = `
import { Ajv2020 as Ajv } from ${JSON.stringify(require.resolve("ajv/dist/2020.js"))};
import { POLICY_PACK_SCHEMA } from ${JSON.stringify(`${ROOT}src/policy/pack-schema.ts`)};
import packValidator from "agentflow:pack-validator";
const OPTIONS = ${JSON.stringify(JSON.stringify(PACK_SCHEMA_AJV_OPTIONS))};
export class Ajv2020 extends Ajv {
  constructor(options) {
    super(options);
    this.agentflowOptions = JSON.stringify(options);
  }
  compile(schema, meta) {
    if (schema === POLICY_PACK_SCHEMA && this.agentflowOptions === OPTIONS) return packValidator;
    return super.compile(schema, meta);
  }
}
`;

/** Builds the plug-in folder into `out` (emptied first). */
export async function buildModelerPlugin(out: string): Promise<void> {
  const { version } = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as {
    version: string;
  };

  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  await build({
    entryPoints: [`${ROOT}src/camunda-modeler/index.ts`],
    outfile: `${out}/client.js`,
    bundle: true,
    format: "iife",
    platform: "browser",
    // The Modeler is an Electron app; its Chromium is recent.
    target: "chrome120",
    minify: true,
    legalComments: "eof",
    logLevel: "warning",
    plugins: [
      {
        name: "precompiled-pack-schema",
        setup(pluginBuild) {
          pluginBuild.onResolve({ filter: /^ajv\/dist\/2020\.js$/ }, (args) =>
            args.importer.endsWith("src/policy/shape.ts")
              ? { path: "agentflow:ajv-shim", namespace: "agentflow" }
              : undefined,
          );
          pluginBuild.onResolve({ filter: /^agentflow:pack-validator$/ }, () => ({
            path: "agentflow:pack-validator",
            namespace: "agentflow",
          }));
          pluginBuild.onLoad({ filter: /.*/, namespace: "agentflow" }, (args) => ({
            contents: args.path === "agentflow:ajv-shim" ? AJV_SHIM : packValidatorCode(),
            loader: "js",
            resolveDir: ROOT,
          }));
        },
      },
      {
        name: "modeler-vendor",
        setup(pluginBuild) {
          pluginBuild.onResolve(
            { filter: /^(@bpmn-io\/properties-panel|bpmn-js-properties-panel)/ },
            (args) => {
              const path = VENDOR[args.path];
              if (path === undefined) {
                return {
                  errors: [{ text: `${args.path} is not one of the Modeler's shared packages` }],
                };
              }
              return { path };
            },
          );
        },
      },
    ],
  });

  writeFileSync(`${out}/package.json`, `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`);
  writeFileSync(
    `${out}/index.js`,
    `/**
 * agentflow ${version}: the Camunda Desktop Modeler plug-in. Copy this folder to
 * <Modeler>/resources/plugins/agentflow/ (or the plugins folder of the Modeler's user data) and
 * restart the Modeler; see https://agentflow.dev/docs/camunda-modeler.md.
 */
"use strict";

module.exports = {
  name: "agentflow",
  script: "./client.js",
};
`,
  );
  cpSync(`${ROOT}src/camunda-modeler/element-templates`, `${out}/element-templates`, {
    recursive: true,
  });
}
