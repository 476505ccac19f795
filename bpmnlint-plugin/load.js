/* global module, require */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: bpmnlint require()s plugins */
/**
 * bpmnlint's NodeResolver require()s a plugin's rules (`bpmnlint-plugin-agentflow/rules/<name>`)
 * and configs, so these CommonJS files stand between it and agentflow. They require the CommonJS
 * bundle of the plugin (`dist/bpmnlint-plugin.cjs`, see scripts/bundle-bpmnlint.ts), which loads
 * on any Node.js 20 and which config bundlers (bpmnlint-pack-config) pack as it is. bpmnlint
 * would swallow a failure to load as "cannot resolve rule", so the failure is handed back as a
 * factory that throws, which bpmnlint does report.
 */
"use strict";

function rule(name) {
  let plugin;
  try {
    plugin = require("../dist/bpmnlint-plugin.cjs");
  } catch (error) {
    const hint = String(error && error.message);
    return function unavailable() {
      throw new Error(`agentflow/${name}: the agentflow plugin did not load: ${hint}`);
    };
  }
  return plugin.rules[name];
}

module.exports = { rule };
