/**
 * A subset node called `end`. The subset's node `data` is agentflow configuration, where a route
 * `next: "end"` ends the run, so a node with that id could never be reached by a route and would
 * turn the flow into a guess. The node is renamed by the importers' one mapper (`end-2`), with
 * the edges that name it as `source` or flow `target`; routes keep `"end"`, which means the end of
 * the run here as in every agentflow document. Declared (`VALUE_NORMALIZED`, reason `reserved`).
 */
import { pointer } from "../../model/index.js";
import { isReservedNodeId } from "../../model/internal.js";
import { allocateId, renamedId } from "../ids.js";
import type { Draft } from "../pipeline.js";
import type { InteropWarning } from "../types.js";

/**
 * Renames, in place, each node whose id is reserved and appears once (a repeated id is left for
 * the model's duplicate-id error), and the edge ends that name it. Template references in a tool's
 * `params` (`{{end.output.x}}`) are text and are not rewritten; the warning says so.
 */
export function renameReserved(nodes: Draft[], edges: Draft[], warnings: InteropWarning[]): void {
  const count = new Map<unknown, number>();
  for (const n of nodes) count.set(n.id, (count.get(n.id) ?? 0) + 1);
  const used = new Set(nodes.map((n) => String(n.id)));
  const renamed = new Map<string, string>();
  nodes.forEach((n, i) => {
    const id = String(n.id);
    if (!isReservedNodeId(id) || count.get(id) !== 1) return;
    const to = allocateId(id, used);
    renamed.set(id, to);
    n.id = to;
    const w = renamedId(pointer("nodes", i, "id"), "node id", id, to);
    warnings.push({
      ...w,
      message: `${w.message} (with the edges that name it; a template '{{${id}.output...}}' in a tool's params is not rewritten)`,
    });
  });
  if (renamed.size === 0) return;
  for (const e of edges) {
    const from = renamed.get(String(e.from));
    if (from !== undefined) e.from = from;
    const to = e.edgeType === "delegate" ? undefined : renamed.get(String(e.to));
    if (to !== undefined) e.to = to;
  }
}
