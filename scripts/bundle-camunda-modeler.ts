/**
 * Builds `camunda-modeler/`, agentflow's Camunda Desktop Modeler plug-in folder (see
 * `camunda-modeler-plugin.ts` for what it holds). Run by `npm run build`.
 */
import { fileURLToPath } from "node:url";
import { buildModelerPlugin } from "./camunda-modeler-plugin.js";

await buildModelerPlugin(fileURLToPath(new URL("../camunda-modeler", import.meta.url)));
