/**
 * A process as a Mermaid flowchart for the Markdown report: left to right, events as circles,
 * gateways as diamonds, tasks as rounded boxes, sub-processes and pools as subgraphs, agent tasks
 * and gates styled with `classDef` (an agent task's label adds its level and gate status), and
 * each bypass path's links styled with `linkStyle`. Ids are `n0`, `n1`…, never the document's;
 * labels are quoted and escaped, then cut to `MERMAID_LABEL_LIMIT` characters of escaped text.
 */
import type { DiagramNode, ProcessDiagram } from "../../../bpmn/index.js";
import {
  mermaidClip,
  mermaidEdgeLabel,
  mermaidLabel,
  mermaidQuotedEdgeLabel,
} from "../../../interop/index.js";
import { MERMAID_LABEL_LIMIT } from "../limits.js";
import type { ProcessMarks } from "./marks.js";
import { badgeText } from "./marks.js";
import { outlineOf } from "./shape-size.js";

const CLASSES = [
  "classDef gate fill:#f2f6fd,stroke:#3057b8,stroke-width:3px",
  "classDef reached fill:#e9f6ee,stroke:#1b7f3b,stroke-width:3px",
  "classDef missing fill:#fdeceb,stroke:#b42318,stroke-width:3px",
  "classDef bypassed fill:#fdeceb,stroke:#b42318,stroke-width:3px",
  "classDef optional fill:#fff5db,stroke:#8a5a00,stroke-width:3px",
  "classDef notNeeded fill:#f1f5f9,stroke:#526075,stroke-width:3px",
  "classDef unresolved fill:#f4effa,stroke:#6b3fa0,stroke-width:3px",
];

function text(raw: string): string {
  return mermaidClip(mermaidLabel(raw), MERMAID_LABEL_LIMIT);
}

function statement(key: string, node: DiagramNode, extra: string): string {
  const name = text(node.name === "" ? node.id : node.name) + extra;
  switch (outlineOf(node)) {
    case "event":
      return `${key}(("${name}"))`;
    case "gateway":
      return `${key}{"${name}"}`;
    case "activity":
      return `${key}("${name}")`;
  }
}

/**
 * The flowchart of `diagram`, with `marks`. The caller keeps the diagram within the drawing
 * limit (Mermaid draws big charts unreadably) and checks the text's length against
 * `MERMAID_TEXT_LIMIT` (Mermaid refuses a text over 50,000 characters): labels are bounded, but
 * 250 nodes of 200 characters are not. A bypass step that leaves a sub-process styles the link
 * out of the nearest enclosing container, as the SVG draws it.
 *
 * @example
 * ```ts
 * import type { ProcessDiagram } from "agentflow/bpmn";
 * import { processMermaid } from "agentflow/report";
 *
 * const node = { trigger: "", interrupting: true, parent: "", attachedTo: "", container: "", gate: false, bounds: undefined, expanded: false, label: undefined } as const;
 * const diagram: ProcessDiagram = {
 *   id: "P", name: "", messageFlows: [],
 *   pools: [{ processId: "P", participantId: "", name: "", bounds: undefined, lanes: [],
 *     nodes: [{ ...node, id: "Start", name: "Start", type: "StartEvent" }, { ...node, id: "Agent", name: "Draft", type: "ServiceTask" }],
 *     flows: [{ id: "F1", name: "", source: "Start", target: "Agent", isDefault: false, conditional: false, waypoints: undefined, label: undefined }] }],
 * };
 * const marks = { agents: new Map([["Agent", { level: 3, mark: "bypassed" as const, href: undefined, findings: 1 }]]), bypasses: [] };
 * processMermaid(diagram, marks).split("\n").slice(0, 4);
 * // → ["flowchart LR", "  n0((\"Start\"))", "  n1(\"Draft<br/>L3 · ✖ gate bypassed\")", "  n0 --> n1"]
 * ```
 */
export function processMermaid(diagram: ProcessDiagram, marks: ProcessMarks): string {
  const lines = ["flowchart LR"];
  const keyOf = new Map<string, string>();
  const byParent = new Map<string, { node: DiagramNode; key: string }[]>();
  const classes = new Map<string, string[]>();
  const addClass = (cls: string, key: string): void => {
    const list = classes.get(cls);
    if (list === undefined) classes.set(cls, [key]);
    else list.push(key);
  };
  let k = 0;
  diagram.pools.forEach((pool, p) => {
    const open = pool.participantId !== "";
    if (open)
      lines.push(
        `  subgraph p${String(p)}["${text(pool.name === "" ? pool.participantId : pool.name)}"]`,
      );
    for (const node of pool.nodes) {
      const key = `n${String(k++)}`;
      if (!keyOf.has(node.id)) keyOf.set(node.id, key);
      const parent = `${String(p)}:${node.parent}`;
      const list = byParent.get(parent);
      if (list === undefined) byParent.set(parent, [{ node, key }]);
      else list.push({ node, key });
    }
    // Depth first with an explicit stack: sub-processes nest as subgraphs, however deep.
    const stack: { items: { node: DiagramNode; key: string }[]; at: number; indent: string }[] = [
      { items: byParent.get(`${String(p)}:`) ?? [], at: 0, indent: open ? "    " : "  " },
    ];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top === undefined) break;
      const item = top.items[top.at++];
      if (item === undefined) {
        stack.pop();
        if (stack.length > 0) lines.push(`${stack[stack.length - 1]?.indent ?? "  "}end`);
        continue;
      }
      const { node, key } = item;
      const mark = marks.agents.get(node.id);
      if (mark !== undefined) addClass(mark.mark === "not-needed" ? "notNeeded" : mark.mark, key);
      else if (node.gate) addClass("gate", key);
      const inner = byParent.get(`${String(p)}:${node.id}`);
      if (node.container !== "" && inner !== undefined && keyOf.get(node.id) === key) {
        lines.push(
          `${top.indent}subgraph ${key}["${text(node.name === "" ? node.id : node.name)}"]`,
        );
        stack.push({ items: inner, at: 0, indent: `${top.indent}  ` });
        continue;
      }
      const extra =
        mark === undefined
          ? node.gate
            ? "<br/>◆ gate"
            : ""
          : `<br/>${mermaidLabel(badgeText(mark))}`;
      lines.push(`${top.indent}${statement(key, node, extra)}`);
    }
    if (open) lines.push("  end");
  });
  // Links in a fixed order, counted, so linkStyle can name the bypass paths' links.
  const links = new Map<string, number[]>();
  let count = 0;
  const link = (from: string, to: string, arrow: string, label: string): void => {
    const a = keyOf.get(from);
    const b = keyOf.get(to);
    if (a === undefined || b === undefined) return;
    lines.push(
      `  ${a} ${arrow}${label === "" ? "" : mermaidQuotedEdgeLabel(mermaidClip(mermaidEdgeLabel(label), MERMAID_LABEL_LIMIT))} ${b}`,
    );
    const pair = `${String(from.length)}:${from}${to}`;
    const seen = links.get(pair);
    if (seen === undefined) links.set(pair, [count]);
    else seen.push(count);
    count += 1;
  };
  for (const pool of diagram.pools)
    for (const f of pool.flows) link(f.source, f.target, "-->", f.name);
  for (const pool of diagram.pools) {
    for (const node of pool.nodes)
      if (node.attachedTo !== "") link(node.attachedTo, node.id, "-.-", "");
  }
  for (const f of diagram.messageFlows) link(f.source, f.target, "-.->", f.name);
  for (const c of CLASSES) lines.push(`  ${c}`);
  for (const [cls, keys] of classes) lines.push(`  class ${keys.join(",")} ${cls}`);
  const parentOf = new Map<string, string>();
  for (const pool of diagram.pools)
    for (const node of pool.nodes)
      if (node.parent !== "" && !parentOf.has(node.id)) parentOf.set(node.id, node.parent);
  const styled = new Set<number>();
  for (const b of marks.bypasses) {
    for (let i = 0; i + 1 < b.path.length; i++) {
      const to = b.path[i + 1] ?? "";
      for (
        let from: string | undefined = b.path[i], seen = new Set<string>();
        from !== undefined && !seen.has(from);
        from = parentOf.get(from)
      ) {
        seen.add(from);
        const found = links.get(`${String(from.length)}:${from}${to}`);
        if (found === undefined) continue;
        for (const index of found) styled.add(index);
        break;
      }
    }
  }
  if (styled.size > 0) {
    lines.push(
      `  linkStyle ${[...styled].sort((a, b) => a - b).join(",")} stroke:#b42318,stroke-width:4px,stroke-dasharray:6 4`,
    );
  }
  return lines.join("\n");
}
