/* global module, require */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: bpmnlint require()s plugins */
"use strict";

module.exports = require("../load.js").rule("agent-self-modifying");
