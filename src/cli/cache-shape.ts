/**
 * The shape of what a `--cache` file holds: each file's outcome down to every diagnostic and
 * every agent task's line, and each registry file's summary. A body that is not exactly this
 * shape (a field deleted, `null`, an entry `{}`, a field the cache never writes) was not written
 * by agentflow — changed by hand or forged — and is never used: a shape the report does not
 * expect would drop a process from the output or crash the run (exit 3). Each shape is declared
 * as the type it checks, so that the compiler holds it to the type. A well-formed forged outcome
 * cannot be told from a real one: the cache is a trusted input (docs/ci.md).
 */
import type { AutonomyFeature, AutonomyReason, GateRequirement } from "../autonomy/index.js";
import type { AgentTaskSummary, Dependency } from "../bpmn/index.js";
import type {
  CamundaJob,
  CamundaLimit,
  DerivedAgent,
  EffectedTool,
} from "../bpmn/camunda/types.js";
import type { LookupFailure } from "../bpmn/dependency.js";
import type {
  AutonomyLevel,
  Diagnostic,
  Severity,
  ToolAuthorization,
  ToolEffect,
} from "../model/index.js";
import type { CheckedFile } from "../report/index.js";
import type { FileOutcome } from "./check-file.js";
import type { RegistryIndexEntry } from "./registry-read.js";
import type { Shape } from "./json-shape.js";
import {
  data,
  either,
  exact,
  flag,
  integer,
  is,
  list,
  literal,
  map,
  nullable,
  number,
  oneOf,
  text,
} from "./json-shape.js";

const level: Shape<AutonomyLevel> = is(
  "an autonomy level (0 to 5)",
  (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 5,
);

const texts = list(text);
const textMap = map(text);
const effect = oneOf<ToolEffect>({
  read: 1,
  propose: 1,
  notify: 1,
  "write-reversible": 1,
  "write-irreversible": 1,
  "external-commitment": 1,
});
const effectSource = oneOf<EffectedTool["effectSource"]>({
  btv: 1,
  config: 1,
  default: 1,
  unknown: 1,
});

const diagnostic: Shape<Diagnostic> = exact(
  {
    code: text,
    severity: oneOf<Severity>({ error: 1, warning: 1, info: 1 }),
    message: text,
    target: either<Diagnostic["target"]>(
      exact({ kind: literal("workflow") }),
      exact({ kind: literal("node"), nodeId: text }),
      exact({ kind: literal("edge"), index: integer, from: text, to: text }),
      exact({ kind: literal("bpmn-element"), elementId: text }, { path: text }),
    ),
    path: text,
    data,
  },
  {
    remediation: text,
    location: exact({ line: integer, column: integer }),
    waived: exact({ reason: text, grantedBy: text, expires: text }),
  },
);
const diagnostics = list(diagnostic);

const checked: Shape<CheckedFile> = exact(
  {
    file: text,
    kind: oneOf<CheckedFile["kind"]>({
      AgentWorkflow: 1,
      ToolContract: 1,
      PolicyPack: 1,
      BpmnProcess: 1,
      unknown: 1,
    }),
    diagnostics,
  },
  { format: text, id: text, version: text, contentHash: text },
);

const dependency: Shape<Dependency> = exact(
  { kind: oneOf<Dependency["kind"]>({ tool: 1, delegate: 1 }), ref: text, nodeId: text },
  {
    via: text,
    contentHash: text,
    effect,
    authorization: oneOf<ToolAuthorization>({ automatic: 1, gate: 1, forbidden: 1 }),
    effectSource,
    effectKey: text,
    failure: exact({
      reason: oneOf<LookupFailure>({
        missing: 1,
        failed: 1,
        invalid: 1,
        mismatch: 1,
        conflict: 1,
        unmapped: 1,
      }),
      detail: text,
    }),
  },
);

const limit: Shape<CamundaLimit> = exact({ input: text, source: text }, { value: number });
const job: Shape<CamundaJob> = exact(
  {
    kind: oneOf<CamundaJob["kind"]>({ "execution-listener": 1, "task-listener": 1, inbound: 1 }),
    type: text,
    expression: flag,
  },
  { event: text },
);
const tool: Shape<EffectedTool> = exact(
  {
    id: text,
    elementType: text,
    inputs: textMap,
    properties: textMap,
    nature: oneOf<EffectedTool["nature"]>({
      connector: 1,
      "user-task": 1,
      engine: 1,
      "pass-through": 1,
      gateway: 1,
      "call-activity": 1,
      "sub-process": 1,
      "event-sub-process": 1,
      other: 1,
    }),
    name: text,
    description: text,
    fromAi: texts,
    effectSource,
    decidedBy: text,
    contentHash: text,
  },
  {
    templateId: text,
    templateVersion: number,
    jobType: text,
    btvToolEffect: text,
    jobs: list(job),
    gateway: text,
    effect,
    effectKey: text,
    unknownReason: text,
  },
);
const reason: Shape<AutonomyReason> = exact({
  level,
  feature: oneOf<AutonomyFeature>({
    "dynamic-planner": 1,
    delegation: 1,
    "branching-decision": 1,
    loop: 1,
  }),
  nodeIds: texts,
  edgeIndexes: list(integer),
});
const derived: Shape<DerivedAgent> = exact(
  {
    elementId: text,
    name: text,
    variant: oneOf<DerivedAgent["variant"]>({ task: 1, "sub-process": 1 }),
    limits: exact({}, { maxModelCalls: limit, maxTokensPerResponse: limit }),
    tools: list(tool),
    people: texts,
    level,
    reasons: list(reason),
    unbounded: flag,
    workflowRef: text,
    readHash: text,
  },
  {
    templateId: text,
    templateVersion: number,
    jobType: text,
    provider: text,
    model: text,
    systemPromptHash: text,
    container: exact({ id: text, found: flag }, { problem: text }),
  },
);
const agentTask: Shape<AgentTaskSummary> = exact(
  {
    elementId: text,
    source: oneOf<AgentTaskSummary["source"]>({ btv: 1, camunda: 1 }),
    ref: nullable(text),
    level: nullable(level),
    justifiedLevel: nullable(level),
    resolution: oneOf<AgentTaskSummary["resolution"]>({
      registry: 1,
      snapshot: 1,
      unresolved: 1,
      derived: 1,
    }),
    contentHash: nullable(text),
    requirement: oneOf<GateRequirement>({ required: 1, optional: 1, none: 1 }),
    gate: oneOf<AgentTaskSummary["gate"]>({ reached: 1, bypassed: 1, missing: 1 }),
    dependencies: list(dependency),
  },
  { derived },
);

/** A file's outcome, as `checkOneFile` gives it. */
export const fileOutcome: Shape<FileOutcome> = exact(
  { checked, unreadable: flag, stderr: texts },
  {
    decision: exact({
      allowed: flag,
      blocking: diagnostics,
      warnings: diagnostics,
      agentTasks: list(agentTask),
    }),
    processIds: texts,
    lookups: textMap,
  },
);

/** A registry file's summary, by the sha256 of its text. */
export const registryEntry: Shape<RegistryIndexEntry> = exact({
  sha256: text,
  summary: exact(
    {
      kind: oneOf<RegistryIndexEntry["summary"]["kind"]>({ workflow: 1, tool: 1, none: 1 }),
      problems: diagnostics,
    },
    { id: text, version: text, contentHash: text },
  ),
});
