/**
 * agentflow's rules as the Camunda Modeler's linting takes a plug-in's rules: a bpmnlint
 * `{ config, resolver }` registered as `lintRules.<tab type>`, which `@camunda/linting` merges
 * into the configuration it lints each diagram with (its `Linter` reads `config` again on every
 * lint, and resolves rules through `resolver` before Camunda's own). The rules are agentflow's
 * bpmnlint rules (`agentflow/bpmnlint`), built with the settings of the diagram's project (see
 * `tracker.ts`), plus two of the plug-in's own that say what of the project could not be read
 * (`project-config`, an error) and what the Modeler does not apply (`project-config-unapplied`).
 */
import type { BpmnlintCategory, BpmnlintReporter, BpmnlintRule } from "../bpmn/lint/index.js";
import { PLUGIN_PACKAGE, PLUGIN_RULE_NAMES } from "../bpmn/lint/index.js";
import type { ModdleObject } from "../bpmn/moddle.js";
import type { ProjectSetup, ProjectTracker } from "./tracker.js";

/** Where the plug-in's own rules are explained. */
const DOCS = "https://agentflow.dev/docs/camunda-modeler.md";

/** The plug-in's own rules: what they report of a project's setup. */
const OWN_RULES: Readonly<Record<string, (setup: ProjectSetup) => readonly string[]>> = {
  "project-config": (setup) => setup.problems,
  "project-config-unapplied": (setup) => setup.unapplied,
};

/** A bpmnlint configuration whose categories are read when the Modeler lints. */
export interface LiveConfig {
  readonly rules: Readonly<Record<string, BpmnlintCategory>>;
}

/** bpmnlint's resolver contract, as `@camunda/linting` calls it (a promise is awaited). */
export interface LintResolver {
  resolveRule(pkg: string, ruleName: string): Promise<(config?: object) => BpmnlintRule>;
  resolveConfig(pkg: string, configName: string): never;
}

/** What is registered with `registerClientPlugin(plugin, "lintRules.<type>")`. */
export interface LintRulesPlugin {
  readonly config: LiveConfig;
  readonly resolver: LintResolver;
}

function isDefinitions(element: ModdleObject): boolean {
  return element.$type === "bpmn:Definitions";
}

function ownRule(report: (setup: ProjectSetup) => readonly string[], tracker: ProjectTracker) {
  return (): BpmnlintRule => ({
    meta: { documentation: { url: DOCS } },
    check(element: ModdleObject, reporter: BpmnlintReporter) {
      if (!isDefinitions(element)) return false;
      const id = typeof element.id === "string" ? element.id : "";
      for (const message of report(tracker.setupFor(element))) reporter.report(id, message);
      return false;
    },
  });
}

function agentflowRule(name: (typeof PLUGIN_RULE_NAMES)[number], tracker: ProjectTracker) {
  return (config?: object): BpmnlintRule => ({
    meta: { documentation: { url: DOCS } },
    check(element: ModdleObject, reporter: BpmnlintReporter) {
      if (!isDefinitions(element)) return false;
      const setup = tracker.setupFor(element);
      // A rule the project turns off reports nothing, even in a lint whose categories were read
      // before the project was (the plug-in lints the tab again once it is read).
      if (setup.categories[name] === "off") return false;
      // The project's rules, built for its settings; they share one evaluation per lint.
      return setup.rules[name](config).check(element, reporter);
    },
  });
}

/**
 * The plug-in for the Modeler's linting. Rule categories are the active tab's project's (the
 * Modeler lints the tab it shows); each rule judges the diagram it is given with the settings
 * of that diagram's project. Resolving a rule waits for project reads under way, so a lint
 * right after a diagram opens uses its settings rather than saying they are still being read.
 */
export function lintRulesPlugin(tracker: ProjectTracker): LintRulesPlugin {
  const config: LiveConfig = {
    get rules() {
      const { categories } = tracker.activeSetup();
      return Object.fromEntries(
        Object.entries(categories).map(([name, category]) => [`agentflow/${name}`, category]),
      );
    },
  };
  const resolver: LintResolver = {
    resolveRule(pkg, ruleName) {
      // Thrown at once, not as a rejected promise: the Modeler's resolver that nests this one
      // asks the next resolver only when this one throws.
      const own =
        pkg === PLUGIN_PACKAGE && Object.hasOwn(OWN_RULES, ruleName)
          ? OWN_RULES[ruleName]
          : undefined;
      if (own !== undefined) return tracker.settled().then(() => ownRule(own, tracker));
      const name = PLUGIN_RULE_NAMES.find((n) => pkg === PLUGIN_PACKAGE && n === ruleName);
      if (name !== undefined) return tracker.settled().then(() => agentflowRule(name, tracker));
      throw new Error(`not a rule of agentflow's Modeler plug-in: ${pkg}/${ruleName}`);
    },
    resolveConfig(pkg, configName) {
      throw new Error(`agentflow's Modeler plug-in bundles no config ${pkg}/${configName}`);
    },
  };
  return { config, resolver };
}
