/**
 * What an agent task's workflow depends on, looked up as requests of the resolving generator
 * (resolve-tasks.ts): every tool it calls and every delegate it hands work to, its own and, from
 * each delegate resolved, the delegate's. Fail closed: a lookup that gives no usable document, a
 * ref that cannot be parsed, and a delegate past {@link MAX_DELEGATES} each stay a dependency
 * with its failure, read as needing a gate; none is dropped.
 */
import type { AgentWorkflow } from "../model/index.js";
import { contentHash, parseRef, parseWorkflow } from "../model/index.js";
import { MAX_DELEGATES } from "../validate/index.js";
import { nodeModels } from "../validate/view.js";
import type { Dependency, FailedLookup } from "./dependency.js";
import { firstError, toolFrom, usable } from "./dependency.js";
import type { LookupAnswer } from "./lookup.js";
import type { RegistryConflict } from "./registry-conflict.js";

/** A request the generator makes; the driver answers it (sync or async). */
export type ResolveRequest =
  | { readonly kind: "workflow"; readonly ref: string }
  | { readonly kind: "validate"; readonly workflow: AgentWorkflow }
  // An embedded snapshot's text, parsed by the driver: the async one loads YAML only for YAML.
  | { readonly kind: "snapshot"; readonly body: string }
  | { readonly kind: "tool"; readonly ref: string };

/** A workflow from an answer, or why there is none (a missing one has no failure). */
export function* lookupWorkflow(
  ref: string,
  conflicts: RegistryConflict[],
): Generator<ResolveRequest, { value?: unknown; failure?: FailedLookup }, unknown> {
  const answer = (yield { kind: "workflow", ref }) as LookupAnswer;
  const got = usable(answer, ref, "workflow", conflicts);
  if ("value" in got) return { value: got.value };
  return got.failure.reason === "missing" ? {} : { failure: got.failure };
}

/**
 * A tool or delegate whose ref is not `id@x.y.z`: nothing can be looked up for it, so its effect
 * is unknown. Kept under the ref as written (cut short: it is the input's text).
 */
function unreadableRef(
  kind: Dependency["kind"],
  written: unknown,
  nodeId: string,
  where: { readonly via?: string },
  problem: string,
): Dependency {
  const json = JSON.stringify(written) as string | undefined;
  const text = typeof written === "string" ? written : (json ?? String(written));
  const ref = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  const detail = `${problem}; nothing was looked up`;
  return { kind, ref, nodeId, ...where, failure: { reason: "missing", detail } };
}

/** A delegate workflow that was read, under the canonical ref its caller names it by. */
export interface ResolvedDelegate {
  /** The canonical `id@x.y.z` the delegate edge names (a dependency's `via` for its tools). */
  readonly ref: string;
  readonly workflow: AgentWorkflow;
}

/** What a workflow and the delegates it resolves depend on, and the models they run. */
export interface WorkflowDependencies {
  readonly dependencies: Dependency[];
  /**
   * The delegates read, direct and transitive, in the order met: each is a workflow the agent
   * runs, judged by the packs' `workflow` rules as its own subject (view/workflows.ts).
   */
  readonly delegates: ResolvedDelegate[];
  /**
   * The models the llm nodes of the workflow and of every delegate read name (`model` and
   * `fallbackModel`), distinct, in order of first use: a delegate's model is run for the agent as
   * much as its tools are called, and a fallback as much as the model it stands in for. Null
   * when one of them is an importer's stand-in for a model its format does not state, or a step
   * whose content the document does not show (a LangGraph function node, a subgraph).
   */
  readonly models: string[] | null;
}

/**
 * Adds every model `workflow`'s nodes may run to `models`, each once; false when one of them may
 * run a model the document does not name (an importer's stand-in, a step whose content is not
 * shown: `nodeModels`).
 */
function addModels(workflow: AgentWorkflow, models: string[]): boolean {
  let stated = true;
  for (const node of workflow.nodes) {
    const named = nodeModels(node);
    if (named === null) stated = false;
    else for (const model of named) if (!models.includes(model)) models.push(model);
  }
  return stated;
}

/**
 * Every tool and delegate of the workflow and, transitively, of the delegates it can resolve:
 * each delegate met past {@link MAX_DELEGATES}, and each ref that cannot be parsed, is kept with
 * its failure (its effect unknown), never dropped.
 */
export function* dependenciesOf(
  root: AgentWorkflow,
  conflicts: RegistryConflict[],
): Generator<ResolveRequest, WorkflowDependencies, unknown> {
  const out: Dependency[] = [];
  const delegates: ResolvedDelegate[] = [];
  const models: string[] = [];
  let unstated = false;
  const seen = new Set([`${root.id}@${root.version}`]);
  const queue: { workflow: AgentWorkflow; via: string | undefined }[] = [
    { workflow: root, via: undefined },
  ];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const { workflow, via } = next;
    if (!addModels(workflow, models)) unstated = true;
    const where = via === undefined ? {} : { via };
    for (const node of workflow.nodes) {
      if (node.type !== "tool") continue;
      const tool = parseRef(node.config.usesTool);
      // Kept, as unknown: TOOL_REF_INVALID blocks it too (in a delegate, through
      // DELEGATE_INVALID), but a tool left out here would vanish from the effects judged.
      if (!tool.ok) {
        out.push(unreadableRef("tool", node.config.usesTool, node.id, where, tool.message));
        continue;
      }
      const answer = (yield { kind: "tool", ref: tool.canonical }) as LookupAnswer;
      const got = toolFrom(answer, tool.canonical, conflicts);
      const base = { kind: "tool", ref: tool.canonical, nodeId: node.id, ...where } as const;
      out.push(
        "failure" in got
          ? { ...base, failure: got.failure }
          : {
              ...base,
              contentHash: contentHash(got.contract),
              effect: got.contract.effect,
              authorization: got.contract.authorization,
            },
      );
    }
    for (const edge of workflow.edges) {
      if (edge.edgeType !== "delegate") continue;
      const ref = parseRef(edge.to);
      if (!ref.ok) {
        out.push(unreadableRef("delegate", edge.to, edge.from, where, ref.message));
        continue;
      }
      if (seen.has(ref.canonical)) continue;
      seen.add(ref.canonical);
      const base = { kind: "delegate", ref: ref.canonical, nodeId: edge.from, ...where } as const;
      // Past the bound nothing more is looked up, but each delegate met stays, as unknown: what
      // it (and whatever it delegates to) calls is never judged, so it counts as needing a gate.
      if (seen.size > MAX_DELEGATES + 1) {
        const detail = `an agent task resolves at most ${MAX_DELEGATES} delegates, so ${ref.canonical} was not looked up`;
        out.push({ ...base, failure: { reason: "failed", detail } });
        continue;
      }
      const found = yield* lookupWorkflow(ref.canonical, conflicts);
      if (found.value === undefined) {
        const failure = found.failure ?? {
          reason: "missing",
          detail: `no workflow ${ref.canonical} was found`,
        };
        out.push({ ...base, failure });
        continue;
      }
      const parsed = parseWorkflow(found.value);
      if (parsed.workflow === undefined) {
        const detail = `the registry's answer for ${ref.canonical} is not a valid workflow (${firstError(parsed.diagnostics)})`;
        out.push({ ...base, failure: { reason: "invalid", detail } });
        continue;
      }
      out.push({ ...base, contentHash: contentHash(parsed.workflow) });
      delegates.push({ ref: ref.canonical, workflow: parsed.workflow });
      queue.push({ workflow: parsed.workflow, via: ref.canonical });
    }
  }
  return { dependencies: out, delegates, models: unstated ? null : models };
}
