/**
 * The type each node of a `when` gives, from its children's, for the static check
 * (feel-check.ts): what a path step, a filter, a `for`, a built-in's call, a literal or a context
 * gives, and what an `in` clause binds its name to. What the check cannot type gives `ANY`, or
 * `undefined` where the node's kind says nothing (the check then reads it as any value).
 */
import type { FactType } from "./fact-types.js";
import { ANY } from "./fact-types.js";
import { BUILTINS } from "./feel-builtins.js";
import type { Node } from "./feel-tree.js";
import {
  calleeName,
  children,
  contextKey,
  isTest,
  itemOf,
  LITERALS,
  stringValue,
  temporalLiteralType,
} from "./feel-tree.js";

/** What typing a node needs from the walk: the types so far, and what depends on scope. */
export interface Typing {
  readonly text: string;
  /** The type computed for a node already left (`ANY` when none was). */
  readonly typeOf: (node: Node | null | undefined) => FactType;
  /** The type of `base.name`, saying a problem when `base` has no such field. */
  readonly step: (node: Node, base: Node, pathName: Node) => FactType;
  /** Whether a call is of a built-in function no name in scope shadows. */
  readonly isBuiltinCall: (node: Node) => boolean;
}

/** What one iteration of an `in` clause over `context` binds its name to. */
export function iteratedType(context: Node | undefined, typing: Typing): FactType {
  if (context === undefined) return ANY;
  const parts = children(context);
  // A range of numbers or of letters: its items are of its start's type.
  if (parts.some((p) => p.name === "..")) {
    const start = typing.typeOf(parts[0]);
    return start.kind === "scalar" ? { kind: "scalar", label: start.label, base: start.base } : ANY;
  }
  return itemOf(typing.typeOf(parts[0]));
}

/** The type a node gives, from its children's (already computed). */
export function nodeType(node: Node, typing: Typing): FactType | undefined {
  const { text, typeOf } = typing;
  switch (node.name) {
    case "Expression":
    case "ParenthesizedExpression":
    case "FunctionBody":
      return typeOf(children(node).find((c) => c.name !== "(" && c.name !== ")"));
    case "PathExpression": {
      const [base] = children(node);
      const pathName = node.getChild("PathName");
      return base === undefined || pathName === null ? ANY : typing.step(node, base, pathName);
    }
    case "FilterExpression": {
      const [base, , body] = children(node);
      const item = itemOf(typeOf(base));
      if (body?.name === "NumericLiteral") return item;
      if (body === undefined || !isTest(body) || item.kind === "any") return ANY;
      return { kind: "list", item };
    }
    case "ForExpression":
      return { kind: "list", item: typeOf(node.lastChild) };
    case "FunctionInvocation": {
      const name = calleeName(node, text);
      return name !== undefined && typing.isBuiltinCall(node)
        ? BUILTINS.get(name)?.gives
        : undefined;
    }
    case "DateTimeLiteral": {
      const value = stringValue(node.firstChild?.getChild("StringLiteral"), text);
      return value === undefined ? undefined : temporalLiteralType(value);
    }
    case "Context":
      return contextType(node, typing);
    default:
      return LITERALS[node.name];
  }
}

/** A context literal's type: an object of its entries when every key is a plain name. */
function contextType(node: Node, typing: Typing): FactType {
  const fields: Record<string, { type: FactType }> = {};
  for (const entry of node.getChildren("ContextEntry")) {
    const label = contextKey(entry, typing.text);
    if (label === undefined) return ANY;
    fields[label] = { type: typing.typeOf(entry.lastChild) };
  }
  return { kind: "object", label: "a context", fields };
}
