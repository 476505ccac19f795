/**
 * The static check of a rule's `when`: FEEL syntax, and every name it reads against the subject's
 * fact model — root facts, fields of object facts (`element.nme`), fields of names bound by
 * `some`/`every`/`for` (`t.efect`), and bare names in a filter (`tools[efect = "x"]`). What the
 * check cannot type (the result of a function, of `if`, of arithmetic) is not checked further;
 * reading a missing field there shows at run time as a FEEL warning, which fails closed
 * (feel.ts). It also refuses iteration it cannot bound (feel-iterate.ts), work it cannot bound
 * (feel-cost.ts), patterns that can backtrack without end (feel-patterns.ts), comparisons that
 * cannot hold as meant — a typed fact against a literal of another type or form, a list against
 * one value, a version ordered (feel-compare.ts) — an `in` whose test feelin reads past where
 * FEEL's precedence ends it (feel-precedence.ts), and, before parsing, a `when` too large to
 * parse (feel-syntax.ts).
 * One iterative walk over feelin's own parse tree: no recursion on the input's depth.
 */
import { parseExpression } from "feelin";
import type { PolicySubject } from "./facts.js";
import type { FactType } from "./fact-types.js";
import { ANY, fieldNames, fieldOf, SUBJECT_TYPES } from "./fact-types.js";
import { BUILTINS } from "./feel-builtins.js";
import { compareProblems, containsProblem } from "./feel-compare.js";
import { MAX_WHEN_STEPS, stepsAt, stepsText, whenCost } from "./feel-cost.js";
import { IterationBudget } from "./feel-iterate.js";
import type { Typing } from "./feel-node-types.js";
import { iteratedType, nodeType } from "./feel-node-types.js";
import { patternProblems } from "./feel-patterns.js";
import { precedenceProblems } from "./feel-precedence.js";
import type { WhenCheck, WhenProblem } from "./feel-reads.js";
import { unchecked } from "./feel-reads.js";
import { isBuiltin, sizeProblem, syntaxError } from "./feel-syntax.js";
import type { Node, Scope } from "./feel-tree.js";
import {
  argumentsOf,
  calleeName,
  callOf,
  children,
  contextKey,
  isFilterBody,
  isSortOrdering,
  isTest,
  itemOf,
  keyOf,
  nameOf,
  PARAMETERS,
} from "./feel-tree.js";

export type { WhenCheck, WhenProblem, WhenReads } from "./feel-reads.js";

/** Checks `when` of a rule `for` a subject. */
export function checkWhen(text: string, subject: PolicySubject): WhenCheck {
  // Said before parsing: parsing a `when` past the bounds is what exhausts the process.
  const tooLarge = sizeProblem(text);
  if (tooLarge !== undefined) return unchecked(tooLarge);
  const tree = parseExpression(text, {}, undefined);
  const syntax = syntaxError(tree, text);
  if (syntax !== undefined) return unchecked(syntax);
  const mentioned = new Set<string>();
  const openKeys = new Set<number>();
  const roots = new Set<string>();
  const root = SUBJECT_TYPES[subject];
  const problems: WhenProblem[] = precedenceProblems(tree.topNode, text);
  const types = new Map<string, FactType>();
  const scopes: Scope[] = [];
  let introspects = false;
  let volatile = false;
  const budget = new IterationBudget();
  const typeOf = (node: Node | null | undefined): FactType =>
    node === null || node === undefined ? ANY : (types.get(keyOf(node)) ?? ANY);

  /** The type of a bare name, or a problem when nothing in scope has it. */
  const resolve = (name: string, from: number): FactType => {
    for (let i = scopes.length - 1; i >= 0; i -= 1) {
      const scope = scopes[i];
      if (scope === undefined) continue;
      if (scope.kind === "name") {
        if (scope.name === name) return scope.type;
        continue;
      }
      if (!scope.tested) continue;
      if (name === "item") return scope.item;
      if (scope.item.kind === "any") return ANY;
      if (scope.item.kind === "object") {
        const field = fieldOf(scope.item, name);
        if (field !== undefined) return field.type;
      }
    }
    const field = fieldOf(root, name);
    if (field !== undefined) {
      roots.add(name);
      return field.type;
    }
    const filter = [...scopes].reverse().find((s) => s.kind === "item");
    if (filter?.kind === "item" && !filter.tested) {
      problems.push({
        from,
        message: `unknown name '${name}' in a filter over '${filter.over}': feelin gives a filter its item only when the filter is a comparison, 'and'/'or', 'some'/'every' or 'instance of' (write tools[effect != "read"], not tools[not(effect = "read")])`,
      });
    } else if (filter?.kind === "item") {
      const fields =
        filter.item.kind === "object"
          ? `fields of ${filter.item.label}: ${fieldNames(filter.item)}`
          : "only 'item' names the item itself";
      problems.push({
        from,
        message: `unknown name '${name}' in a filter over '${filter.over}' (${fields})`,
      });
    } else {
      problems.push({
        from,
        message: `unknown fact '${name}' (facts of ${subject}: ${fieldNames(root)})`,
      });
    }
    return ANY;
  };

  /** The type of `base.name`, or a problem when `base` has no such field. */
  const step = (node: Node, base: Node, pathName: Node): FactType => {
    const name = nameOf(pathName, text);
    mentioned.add(name);
    const shown = text.slice(node.from, node.to);
    let type = typeOf(base);
    let overList = false;
    while (type.kind === "list") {
      type = type.item;
      overList = true;
    }
    let result: FactType = ANY;
    if (type.kind === "map") {
      openKeys.add(pathName.from);
      result = type.value;
      // `budget.maxCost.usd` can never be present: the workflow schema allows `maxCostUSD` only.
      if (type.keys !== undefined && !type.keys.pattern.test(name)) {
        problems.push({
          from: pathName.from,
          message: `unknown field '${shown}' (the keys of ${type.label} are each ${type.keys.words}, so '${name}' is never present)`,
        });
      }
    } else if (type.kind === "object") {
      const field = fieldOf(type, name);
      if (field === undefined) {
        const what =
          base.name === "VariableName" && fieldOf(root, nameOf(base, text)) !== undefined
            ? "fact"
            : "field";
        problems.push({
          from: pathName.from,
          message: `unknown ${what} '${shown}' (fields of ${type.label}: ${fieldNames(type)})`,
        });
      } else {
        result = field.type;
      }
    } else if (type.kind === "scalar") {
      problems.push({
        from: pathName.from,
        message: `'${text.slice(base.from, base.to)}' is ${type.label}; it has no field '${name}'`,
      });
    }
    return overList && result.kind !== "any" ? { kind: "list", item: result } : result;
  };

  /** Binds `name` until the node keyed `owner` is left. */
  const bind = (name: string, type: FactType, owner: Node): void => {
    scopes.push({ kind: "name", name, type, owner: keyOf(owner) });
    mentioned.add(name);
  };

  const typing: Typing = { text, typeOf, step, isBuiltinCall };

  tree.iterate({
    enter(ref) {
      const kind = ref.name;
      if (kind === "Type" || kind === "LineComment" || kind === "BlockComment") return false;
      const node = ref.node;
      if (kind === "Key" || kind === "PathName") return false;
      if (kind === "Name") return false; // an InExpression's bound name: bound when it is left
      if (kind === "ParameterName") {
        const definition = node.parent?.parent?.parent;
        if (
          node.parent?.name === "FormalParameter" &&
          definition !== null &&
          definition !== undefined
        ) {
          // sort's ordering compares two items of the sorted list; any other function is refused
          // (feel-cost.ts), so its parameters need no type.
          const call = isSortOrdering(definition, text) ? callOf(definition) : undefined;
          const sorted =
            call === undefined ? undefined : argumentsOf(call, PARAMETERS.get("sort"), text)[0];
          const type = sorted === undefined ? ANY : itemOf(typeOf(sorted));
          bind(nameOf(node.getChild("Name") ?? node, text), type, definition);
        }
        return false;
      }
      if (kind === "VariableName") {
        const name = nameOf(node, text);
        const parent = node.parent;
        if (parent?.name === "FunctionInvocation" && node.prevSibling === null) {
          if (BUILTINS.get(name)?.introspects === true) introspects = true;
          if (name === "today" || name === "now") volatile = true;
          const bound = scopes.some((s) => s.kind === "name" && s.name === name);
          if (!bound && !isBuiltin(name)) {
            problems.push({ from: node.from, message: `unknown function '${name}'` });
          }
          return false;
        }
        mentioned.add(name);
        types.set(keyOf(node), resolve(name, node.from));
        return false;
      }
      if (isFilterBody(node) && node.parent !== null) {
        const base = children(node.parent)[0];
        const over = base === undefined ? "" : text.slice(base.from, base.to);
        scopes.push({
          kind: "item",
          item: itemOf(typeOf(base)),
          over,
          tested: isTest(node),
          owner: keyOf(node),
        });
      }
      return undefined;
    },
    leave(ref) {
      const node = ref.node;
      const key = keyOf(node);
      const type = nodeType(node, typing);
      if (type !== undefined) types.set(key, type);
      if (ref.name === "Comparison") {
        problems.push(...compareProblems(node, text, typeOf));
      } else if (ref.name === "FunctionInvocation") {
        const shadowed = (name: string) => scopes.some((s) => s.kind === "name" && s.name === name);
        problems.push(...patternProblems(node, text, shadowed));
        if (isBuiltinCall(node) && calleeName(node, text) === "list contains") {
          const [list, value] = argumentsOf(node, ["list", "element"], text);
          const shownList = list === undefined ? "" : text.slice(list.from, list.to);
          const valueType = value === undefined ? undefined : typeOf(value);
          const problem = containsProblem(typeOf(list), value, valueType, shownList, text);
          if (problem !== undefined) problems.push(problem);
        }
      } else if (ref.name === "InExpression") {
        const [name, , context] = children(node);
        const iteration =
          context === undefined ? undefined : budget.check(context, text, typeOf, isBuiltinCall);
        if (iteration !== undefined) problems.push(iteration);
        const owner = node.parent?.parent;
        if (name !== undefined && owner !== null && owner !== undefined) {
          bind(nameOf(name, text), iteratedType(context, typing), owner);
        }
      } else if (ref.name === "ContextEntry") {
        const label = contextKey(node, text);
        if (label !== undefined && node.parent !== null) {
          bind(label, typeOf(node.lastChild), node.parent);
        }
      }
      while (scopes.length > 0 && scopes[scopes.length - 1]?.owner === key) scopes.pop();
    },
  });

  /** A call of a built-in function no name in scope shadows: it never gives a range. */
  function isBuiltinCall(node: Node): boolean {
    if (node.name !== "FunctionInvocation") return false;
    if (node.firstChild?.name === "SpecialFunctionName") return true;
    const name = calleeName(node, text);
    if (name === undefined) return false;
    return !scopes.some((s) => s.kind === "name" && s.name === name) && isBuiltin(name);
  }

  // Bounded last, and said only for an expression otherwise sound: an unbounded range is said
  // at the range already.
  const bounded = whenCost(tree, text, typeOf);
  const least = stepsAt(bounded.cost, { length: 1, total: 1 });
  if (problems.length === 0) problems.push(...bounded.problems);
  if (problems.length === 0 && least > MAX_WHEN_STEPS) {
    problems.push({
      from: 0,
      message: `this 'when' may take ${stepsText(least)} steps on facts of one value each; a rule's 'when' may take at most ${MAX_WHEN_STEPS.toLocaleString("en-US")} (feelin cannot be stopped once it runs)`,
    });
  }
  const cost = bounded.cost;
  return { problems, mentioned, introspects, openKeys, roots, volatile, cost };
}
