/** Writes docs/rules/README.md from the rule registries (workflow and BPMN rules). */
import { writeFileSync } from "node:fs";
import { ruleIndexMarkdown } from "../src/report/rule-index.js";

writeFileSync(new URL("../docs/rules/README.md", import.meta.url), ruleIndexMarkdown());
console.log("wrote docs/rules/README.md");
