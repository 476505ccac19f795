/**
 * What an adversarial case is, and the small builders the corpus files share: template copies
 * with one part replaced, nesting, and BPMN wrapping.
 */
import type { AgentWorkflow } from "../../src/model/index.js";
import { getTemplate } from "../../src/model/index.js";

/** What a case feeds in: text (to the text parsers and the BPMN reader) or a decoded value. */
export type CaseInput =
  | { readonly kind: "text"; readonly text: string; readonly options?: unknown }
  | {
      readonly kind: "value";
      readonly value: unknown;
      /** Simulation options given to `simulate` and `explore` with the workflow. */
      readonly options?: unknown;
    };

/** One adversarial case. `input` is lazy so that only one big case is in memory at a time. */
export interface AdversarialCase {
  /** Unique; a file case is named by its file name. */
  readonly name: string;
  /** Whether a value case is also fed, as JSON text, to the text entry points (default true). */
  readonly asText?: boolean;
  readonly input: () => CaseInput;
}

/** A fresh, writable copy of a template. */
export function template(id = "research"): Record<string, unknown> & AgentWorkflow {
  return structuredClone(getTemplate(id)) as Record<string, unknown> & AgentWorkflow;
}

/** A value case; `options` are the simulation options given with it. */
export function value(
  name: string,
  build: () => unknown,
  more: { readonly asText?: boolean; readonly options?: () => unknown } = {},
): AdversarialCase {
  const { asText = true, options } = more;
  return {
    name,
    asText,
    input: () => ({
      kind: "value",
      value: build(),
      ...(options === undefined ? {} : { options: options() }),
    }),
  };
}

/** A text case. */
export function text(name: string, build: () => string): AdversarialCase {
  return { name, input: () => ({ kind: "text", text: build() }) };
}

/** The research template with its decision's condition replaced. */
export function withCondition(condition: string, language?: "feel" | "text"): AgentWorkflow {
  const wf = template();
  const nodes = wf.nodes.map((node) =>
    node.type === "decision" && "onTrue" in node.config
      ? {
          ...node,
          config: {
            ...node.config,
            condition,
            ...(language === undefined ? {} : { conditionLanguage: language }),
          },
        }
      : node,
  );
  return { ...wf, nodes };
}

/** The research template with its tool node's config replaced. */
export function withToolConfig(config: Record<string, unknown>): Record<string, unknown> {
  const wf = template();
  return {
    ...wf,
    nodes: wf.nodes.map((node) => (node.type === "tool" ? { ...node, config } : node)),
  };
}

/** `leaf` wrapped `depth` times by `wrap`, built in a loop. */
export function nested(depth: number, leaf: unknown, wrap: (inner: unknown) => unknown): unknown {
  let current = leaf;
  for (let i = 0; i < depth; i++) current = wrap(current);
  return current;
}

const NS =
  'xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:btv="https://agentflow.dev/schema/btv/1.0" xmlns:x="urn:x"';

/** A BPMN document whose process holds `body`. */
export function bpmnWith(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<bpmn:definitions ${NS} id="d"><bpmn:process id="p">${body}</bpmn:process></bpmn:definitions>`;
}
