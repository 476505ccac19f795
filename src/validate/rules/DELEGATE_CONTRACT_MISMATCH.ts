import type { ObjectField, ObjectTypeNode } from "../../model/index.js";
import { findMismatch, formatType, pointer, resolveShape } from "../../model/index.js";
import type { Rule, RuleContext } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * What the delegating node declares it returns: an llm's `config.outputSchema`, or the output of
 * the tool contract a tool node binds to. Undefined when nothing is declared (or the contract is
 * unresolved): the contract is then unknown, and guessing it would report noise.
 */
function nodeOutput(
  { workflow, graph, facts }: RuleContext,
  from: string,
  tools: Map<string, ObjectTypeNode>,
): ObjectTypeNode | undefined {
  const i = graph.index.get(from);
  const node = i === undefined ? undefined : workflow.nodes[i];
  if (i === undefined || node === undefined) return undefined;
  if (node.type === "llm") {
    const schema = node.config.outputSchema;
    if (schema === undefined) return undefined;
    return facts.shape(schema, pointer("nodes", i, "config", "outputSchema")).type;
  }
  if (node.type !== "tool") return undefined;
  const parsed = facts.nodeRefs()[i];
  if (parsed?.ok !== true) return undefined;
  const contract = facts.resolved.tools.get(parsed.canonical);
  if (contract?.status !== "resolved") return undefined;
  let type = tools.get(parsed.canonical);
  if (type === undefined) {
    type = resolveShape(contract.value.outputSchema, undefined, "/outputSchema").type;
    tools.set(parsed.canonical, type);
  }
  return type;
}

/**
 * The output the delegate is given: the node's own when it declares one; otherwise the
 * workflow's `outputSchema`, the contract the seed engine checks a delegation against (an agent
 * hands on what it declares it produces), so a seed document keeps its finding here.
 */
function delegatorOutput(
  context: RuleContext,
  from: string,
  tools: Map<string, ObjectTypeNode>,
): { readonly type: ObjectTypeNode; readonly output: "node" | "workflow" } | undefined {
  const own = nodeOutput(context, from, tools);
  if (own !== undefined) return { type: own, output: "node" };
  if (context.graph.index.get(from) === undefined) return undefined;
  const type = context.facts.shape(context.workflow.outputSchema, "/outputSchema").type;
  return { type, output: "workflow" };
}

/**
 * A delegate receives what the delegating node produced. If that output lacks a field the
 * delegate requires, or gives it a type the delegate cannot accept, the hand-off fails at run
 * time, in the other agent, far from the cause.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "DELEGATE_CONTRACT_MISMATCH",
    defaultSeverity: "error",
    description:
      "The delegating node's declared output (else the workflow's outputSchema) does not cover the delegate's inputs",
    docs: "docs/rules/DELEGATE_CONTRACT_MISMATCH.md",
    messages: {
      default:
        'node "{{nodeId}}" delegates to "{{delegate}}", whose input "{{field}}" expects {{expected}}, but the node\'s output gives {{actual}}',
      missing:
        'node "{{nodeId}}" delegates to "{{delegate}}", whose required input "{{field}}" ({{expected}}) is not in the node\'s output',
      optional:
        'node "{{nodeId}}" delegates to "{{delegate}}", whose required input "{{field}}" ({{expected}}) is only optional in the node\'s output',
      workflow:
        'node "{{nodeId}}" delegates to "{{delegate}}", whose input "{{field}}" expects {{expected}}, but the workflow\'s outputSchema (the node declares no output) gives {{actual}}',
      workflowMissing:
        'node "{{nodeId}}" delegates to "{{delegate}}", whose required input "{{field}}" ({{expected}}) is not in the workflow\'s outputSchema (the node declares no output)',
      workflowOptional:
        'node "{{nodeId}}" delegates to "{{delegate}}", whose required input "{{field}}" ({{expected}}) is only optional in the workflow\'s outputSchema (the node declares no output)',
    },
    remediation:
      'declare "{{field}}" as {{expected}} (required) in the output of "{{nodeId}}" (or, when the node declares none, in the workflow\'s outputSchema), or delegate to a version whose input matches',
  },
  check(context) {
    const { workflow, graph, facts } = context;
    // Findings are per delegate edge: without one, nothing to compute (not even the refs).
    if (graph.delegateEdges.length === 0) return;
    const refs = facts.delegateRefs();
    const tools = new Map<string, ObjectTypeNode>();
    const inputs = new Map<string, readonly ObjectField[]>();
    // Only the delegate edges: the others are never loaded.
    graph.delegateEdges.forEach((index) => {
      const edge = workflow.edges[index];
      const parsed = refs[index];
      if (edge?.edgeType !== "delegate" || parsed?.ok !== true) return;
      const delegate = facts.resolved.delegates.get(parsed.canonical);
      if (delegate?.status !== "resolved") return;
      const given = delegatorOutput(context, edge.from, tools);
      if (given === undefined) return;
      const { type: output } = given;
      const ids =
        given.output === "node"
          ? ({ default: "default", missing: "missing", optional: "optional" } as const)
          : ({
              default: "workflow",
              missing: "workflowMissing",
              optional: "workflowOptional",
            } as const);
      let wanted = inputs.get(parsed.canonical);
      if (wanted === undefined) {
        const { inputSchema, types } = delegate.value;
        wanted = resolveShape(inputSchema, types, "/inputSchema").type.fields;
        inputs.set(parsed.canonical, wanted);
      }
      const have = new Map(output.fields.map((f) => [f.name, f]));
      for (const field of wanted) {
        const found = have.get(field.name);
        const data = {
          nodeId: edge.from,
          index,
          delegate: parsed.canonical,
          field: field.name,
          expected: formatType(field.type),
          output: given.output,
        };
        const at = {
          target: { kind: "node", nodeId: edge.from } as const,
          path: pointer("edges", index, "to"),
        };
        if (found === undefined) {
          if (!field.optional)
            context.report({ ...at, messageId: ids.missing, data: { ...data, reason: "missing" } });
          continue;
        }
        const actual = formatType(found.type);
        if (found.optional && !field.optional) {
          context.report({
            ...at,
            messageId: ids.optional,
            data: { ...data, actual, reason: "optional" },
          });
          continue;
        }
        const mismatch = findMismatch(found.type, field.type);
        if (mismatch === undefined) continue;
        context.report({
          ...at,
          messageId: ids.default,
          data: { ...data, actual, reason: "type", fieldPath: [field.name, ...mismatch.path] },
        });
      }
    });
  },
});
