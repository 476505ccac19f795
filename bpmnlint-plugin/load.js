/* global module, require */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: bpmnlint require()s plugins */
/**
 * bpmnlint's NodeResolver require()s a plugin's rules (`bpmnlint-plugin-agentflow/rules/<name>`)
 * and configs, so these CommonJS files stand between it and agentflow's ES module build. Node
 * 20.19+ and 22.12+ can require() ES modules; older versions cannot, and bpmnlint would swallow
 * that error as "cannot resolve rule", so the failure is handed back as a factory that throws,
 * which bpmnlint does report.
 */
"use strict";

function rule(name) {
  let plugin;
  try {
    plugin = require("../dist/bpmn/lint/index.js");
  } catch (error) {
    const hint =
      error && error.code === "ERR_REQUIRE_ESM"
        ? "this Node.js cannot require() ES modules; use Node.js 20.19+ or 22.12+"
        : String(error && error.message);
    return function unavailable() {
      throw new Error(`agentflow/${name}: the agentflow plugin did not load: ${hint}`);
    };
  }
  return plugin.rules[name];
}

module.exports = { rule };
