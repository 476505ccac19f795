/**
 * The entry of a `langgraph-gen` spec: its `entrypoint`, or its edges from `__start__`.
 */
import { pointer } from "../../model/index.js";
import { allocateId } from "../ids.js";
import { isRecord, own } from "../json.js";
import { guessed } from "../warnings.js";
import type { Build } from "./gen-build.js";
import { EDGE_KEYS, isConditional, link, readPaths, routeDecision, target } from "./gen-build.js";
import { dropUnknown, fail, requireString } from "./gen-read.js";

/**
 * The entry node's id. langgraph-gen's `_add_to_graph` adds `START → entrypoint` when the spec
 * has an `entrypoint`, and every `from: __start__` edge as written (`_validate_spec` requires
 * neither), so both name the entry. agentflow has one entry: the edges from `__start__` and
 * `entrypoint` must agree on one node, or be one conditional edge (with no `entrypoint`), whose
 * decision is then the entry. Anything else starts branches in parallel, refused.
 */
export function readEntry(
  doc: Readonly<Record<string, unknown>>,
  rawEdges: readonly unknown[],
  b: Build,
): string {
  const entrypoint = own(doc, "entrypoint");
  const named =
    entrypoint === undefined ? undefined : requireString(doc, "entrypoint", "/entrypoint");
  let entry: { readonly id: string; readonly at: string } | undefined;
  if (named !== undefined) {
    const id = b.byName.get(named);
    if (id === undefined)
      throw fail("/entrypoint", `the entrypoint '${named}' is not a node`, named);
    entry = { id, at: "/entrypoint" };
  }
  for (const [i, raw] of rawEdges.entries()) {
    if (!isRecord(raw) || own(raw, "from") !== "__start__") continue;
    dropUnknown(raw, EDGE_KEYS, ["edges", i], `edge ${String(i)}`, b.warnings);
    const at = pointer("edges", i);
    if (isConditional(raw, i, "__start__")) {
      if (entry !== undefined)
        throw fail(
          at,
          `a conditional edge from __start__ beside another entry (${entry.at}) starts branches in parallel; agentflow has one entry`,
          "__start__",
        );
      const id = startDecision(raw, i, b);
      entry = { id, at };
      continue;
    }
    const to = target(requireString(raw, "to", `${at}/to`), `${at}/to`, b);
    if (to === "end")
      throw fail(
        `${at}/to`,
        "the edge from __start__ leads straight to __end__; no node would run",
        "__start__",
      );
    if (entry === undefined) entry = { id: to, at };
    else if (entry.id !== to)
      throw fail(
        at,
        `__start__ leads to '${to}' and to the entry given at ${entry.at}, which LangGraph starts in parallel; agentflow has one entry`,
        "__start__",
      );
  }
  if (entry === undefined)
    throw fail(
      "/entrypoint",
      "the spec has no entrypoint and no edge from __start__, so no node would run",
    );
  return entry.id;
}

/** A conditional edge from `__start__`: the decision that is the entry, routing to its paths. */
function startDecision(raw: Readonly<Record<string, unknown>>, i: number, b: Build): string {
  const condition = requireString(raw, "condition", pointer("edges", i, "condition"));
  const paths = readPaths(raw, i);
  const targets = paths.map((p, k) => target(p, pointer("edges", i, "paths", k), b));
  if (targets.length === 1 && targets[0] !== "end") return targets[0] ?? "";
  const id = allocateId("start.route", b.used);
  b.decisions.add(id);
  const otherwise = paths.at(-1) ?? "";
  const message = `the conditional edge from __start__ ('${condition}') becomes the text decision '${id}', the entry (never simulable); its last path '${otherwise}' is the otherwise route`;
  b.warnings.push(guessed(pointer("edges", i), message, { nodeId: id, condition, otherwise }));
  b.nodes.unshift(routeDecision(id, condition, paths, targets));
  for (const [k, p] of paths.entries()) link(id, targets[k] ?? "end", i, b, p);
  return id;
}
