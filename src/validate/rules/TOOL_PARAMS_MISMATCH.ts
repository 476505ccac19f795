import { formatType, NODE_KIND, pointer, resolveShape, wholeTemplate } from "../../model/index.js";
import type { ObjectTypeNode, TypeNode } from "../../model/index.js";
import type { Rule, RuleContext } from "../types.js";
import { ANY, fieldType, paramMismatch } from "../param-types.js";
import { defineRule } from "../../rules/index.js";

/**
 * The type of a param string: `text`, unless the string is one whole template, whose value keeps
 * the type its source declares (an llm's `outputSchema`, the output of the tool contract a tool
 * node binds to, the workflow's `inputSchema`), or `any` when the source declares nothing.
 */
function stringTyper(
  { workflow, graph, facts }: RuleContext,
  toolOutput: (i: number) => ObjectTypeNode | undefined,
): (text: string) => TypeNode {
  const hasNode = (id: string): boolean => graph.index.has(id);
  return (text) => {
    const t = wholeTemplate(text, hasNode);
    if (t === undefined) return { kind: "primitive", name: "text" };
    if (t.kind === "input") {
      const input = facts.shape(workflow.inputSchema, "/inputSchema").type;
      return fieldType(input, [t.field, ...t.path]);
    }
    const j = t.kind === "node" ? graph.index.get(t.nodeId) : undefined;
    const node = j === undefined ? undefined : workflow.nodes[j];
    if (t.kind !== "node" || j === undefined || node === undefined) return ANY;
    const schema = node.type === "llm" ? node.config.outputSchema : undefined;
    const output =
      schema === undefined
        ? toolOutput(j)
        : facts.shape(schema, pointer("nodes", j, "config", "outputSchema")).type;
    return output === undefined ? ANY : fieldType(output, t.path);
  };
}

/** `items[].name` rather than `items.[].name`. */
const dotted = (path: readonly string[]): string =>
  path.reduce((out, s) => (s === "[]" ? `${out}[]` : out === "" ? s : `${out}.${s}`), "");

/**
 * A tool node's params are checked against the input shape of the contract it binds to: a
 * missing required input, a param the contract does not declare (the compiled contract rejects
 * it at run time), or a value of the wrong type would each fail the call, after the agent has
 * already spent the steps that led there. Only resolved contracts are checked.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "TOOL_PARAMS_MISMATCH",
    defaultSeverity: "error",
    description: "Tool params do not match the contract's input shape",
    docs: "docs/rules/TOOL_PARAMS_MISMATCH.md",
    messages: {
      default:
        'tool node "{{nodeId}}" passes {{actual}} as "{{field}}", but "{{tool}}" expects {{expected}}',
      type: 'tool node "{{nodeId}}" passes {{actual}} as "{{field}}", but "{{tool}}" expects {{expected}}',
      missing:
        'tool node "{{nodeId}}" does not pass "{{field}}", which "{{tool}}" requires ({{expected}})',
      undeclared: 'tool node "{{nodeId}}" passes "{{param}}", which "{{tool}}" does not declare',
    },
    remediation: 'make the params of "{{nodeId}}" match the input of "{{tool}}"',
  },
  check(context) {
    const { workflow, graph, facts } = context;
    const refs = facts.nodeRefs();
    const shapes = new Map<string, { input: ObjectTypeNode; output: ObjectTypeNode }>();
    const contract = (i: number) => {
      const parsed = refs[i];
      const resolution =
        parsed?.ok === true ? facts.resolved.tools.get(parsed.canonical) : undefined;
      if (parsed?.ok !== true || resolution?.status !== "resolved") return undefined;
      let shape = shapes.get(parsed.canonical);
      if (shape === undefined) {
        const { inputSchema, outputSchema } = resolution.value;
        const input = resolveShape(inputSchema, undefined, "/inputSchema").type;
        shape = { input, output: resolveShape(outputSchema, undefined, "/outputSchema").type };
        shapes.set(parsed.canonical, shape);
      }
      return { tool: parsed.canonical, ...shape };
    };
    const ofString = stringTyper(context, (i) => contract(i)?.output);
    workflow.nodes.forEach((node, i) => {
      const bound = graph.kind[i] === NODE_KIND.tool ? contract(i) : undefined;
      if (bound === undefined || node.type !== "tool") return;
      const { params } = node.config;
      const { tool, input } = bound;
      const at = (...tokens: string[]) => ({
        target: { kind: "node", nodeId: node.id } as const,
        path: pointer("nodes", i, "config", ...(params === undefined ? [] : ["params", ...tokens])),
      });
      for (const f of input.fields) {
        if (f.optional || (params !== undefined && Object.hasOwn(params, f.name))) continue;
        const data = {
          nodeId: node.id,
          tool,
          param: f.name,
          field: f.name,
          expected: formatType(f.type),
        };
        context.report({ ...at(), messageId: "missing", data });
      }
      const declared = new Map(input.fields.map((f) => [f.name, f.type]));
      for (const [param, value] of Object.entries(params ?? {})) {
        const type = declared.get(param);
        if (type === undefined) {
          context.report({
            ...at(param),
            messageId: "undeclared",
            data: { nodeId: node.id, tool, param, field: param },
          });
          continue;
        }
        const m = paramMismatch(value, type, ofString);
        if (m === undefined) continue;
        const data = {
          nodeId: node.id,
          tool,
          param,
          field: dotted([param, ...m.fieldPath]),
          fieldPath: [param, ...m.fieldPath],
          expected: m.expected,
          ...(m.actual === undefined ? {} : { actual: m.actual }),
        };
        context.report({ ...at(param, ...m.tokens), messageId: m.kind, data });
      }
    });
  },
});
