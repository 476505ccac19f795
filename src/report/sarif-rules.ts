/**
 * The rules of a SARIF log: each code as a `reportingDescriptor` (short and full description, a
 * help text linking its documentation, its default level), and each plugin or policy pack as a
 * `toolComponent` of `tool.extensions` holding its own rules.
 */
import type { Severity } from "../model/index.js";
import type { ToolExtension } from "./extension.js";
import type { RuleDescriptor } from "./rule-descriptor.js";

/** SARIF's levels for agentflow's severities. */
export const LEVELS: Readonly<Record<Severity, "error" | "warning" | "note">> = {
  error: "error",
  warning: "warning",
  info: "note",
};

/** A message with its Markdown form. */
interface MessageString {
  readonly text: string;
  readonly markdown?: string;
}

/** The first sentence, for `shortDescription`, which viewers show where space is short. */
function firstSentence(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (
      (c === "." || c === "!" || c === "?") &&
      (i + 1 === text.length || /\s/.test(text[i + 1] ?? ""))
    ) {
      return text.slice(0, i + 1);
    }
  }
  return text;
}

/** Backslash-escapes Markdown punctuation so a description renders as the plain text it is. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+\-.!|~]/g, "\\$&");
}

function ruleName(code: string): string {
  const words = code.split(/[^A-Za-z0-9]+/).filter((w) => w !== "");
  const name = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()).join("");
  return name === "" ? code : name;
}

/** A rule as a SARIF `reportingDescriptor`. */
export function reportingDescriptor(rule: RuleDescriptor): Record<string, unknown> {
  const short = firstSentence(rule.description);
  const link = `[Documentation of ${escapeMarkdown(rule.code)}](<${rule.helpUri}>)`;
  const help: MessageString = {
    text: `${rule.description}\n\nDocumentation: ${rule.helpUri}`,
    markdown: `${escapeMarkdown(rule.description)}\n\n${link}`,
  };
  return {
    id: rule.code,
    name: ruleName(rule.code),
    shortDescription: { text: short },
    ...(short === rule.description ? {} : { fullDescription: { text: rule.description } }),
    helpUri: rule.helpUri,
    help,
    defaultConfiguration: { level: LEVELS[rule.defaultSeverity] },
  };
}

/** An extension as a SARIF `toolComponent`. */
export function component(extension: ToolExtension): Record<string, unknown> {
  return {
    name: extension.name,
    version: extension.version,
    rules: extension.rules.map(reportingDescriptor),
    properties: { kind: extension.kind, sha256: extension.sha256 },
  };
}
