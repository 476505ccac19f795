/**
 * Whether a value is an agentflow approval statement: the in-toto Statement v1 shape, the
 * predicate against its published schema, and what a schema cannot say — subjects sorted and
 * unique, and every name a decision uses (process, workflow, dependency) one of the subjects.
 * A statement that fails any of these is not verified further: nothing in it can be trusted to
 * mean what it says.
 */
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { byCodeUnits, isTime, SHA256_PATTERN } from "./internal.js";
import { APPROVAL_PREDICATE_SCHEMA } from "./predicate-schema.js";
import type { ApprovalReason, StatementProblemKind } from "./reason-data.js";
import { approvalReason } from "./reasons.js";
import { PREDICATE_TYPE, STATEMENT_TYPE } from "./types.js";
import type { ApprovalStatement } from "./types.js";

const SUBJECT_KINDS = ["process", "workflow", "tool", "config", "policy", "plugin"];

/** The in-toto Statement v1 envelope around the predicate, closed as the predicate is. */
const STATEMENT_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  additionalProperties: false,
  required: ["_type", "subject", "predicateType", "predicate"],
  properties: {
    _type: { const: STATEMENT_TYPE },
    subject: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["name", "digest", "annotations"],
        properties: {
          name: { type: "string", minLength: 1 },
          digest: {
            type: "object",
            additionalProperties: false,
            required: ["sha256"],
            properties: { sha256: { type: "string", pattern: SHA256_PATTERN } },
          },
          annotations: {
            type: "object",
            additionalProperties: false,
            required: ["agentflowKind"],
            properties: { agentflowKind: { enum: SUBJECT_KINDS } },
          },
        },
      },
    },
    predicateType: { const: PREDICATE_TYPE },
    predicate: { $ref: PREDICATE_TYPE },
  },
};

let validate: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (validate === undefined) {
    const ajv = new Ajv2020({ strict: true, allErrors: true, logger: false, ownProperties: true });
    ajv.addSchema(APPROVAL_PREDICATE_SCHEMA);
    validate = ajv.compile(STATEMENT_SCHEMA);
  }
  return validate;
}

const escape = (key: string): string => key.replaceAll("~", "~0").replaceAll("/", "~1");

/** One Ajv error as a reason; `undefined` for the `null` branch of a nullable field. */
function schemaReason(error: ErrorObject): ApprovalReason | undefined {
  if (error.keyword === "anyOf" || error.schemaPath.includes("/anyOf/1/")) return undefined;
  const params = error.params as Readonly<Record<string, unknown>>;
  const at = error.instancePath;
  const invalid = (pointer: string, problem: StatementProblemKind, detail?: unknown) =>
    approvalReason("STATEMENT_INVALID", {
      pointer,
      problem,
      ...(detail === undefined
        ? {}
        : {
            detail:
              typeof detail === "number" || typeof detail === "string"
                ? detail
                : JSON.stringify(detail),
          }),
    });
  switch (error.keyword) {
    case "required":
      return invalid(`${at}/${escape(params.missingProperty as string)}`, "required");
    case "additionalProperties":
      return invalid(
        `${at}/${escape(params.additionalProperty as string)}`,
        "additionalProperties",
      );
    case "type":
      return invalid(at, "type", params.type);
    case "const":
      return invalid(at, "const", JSON.stringify(params.allowedValue));
    case "enum":
      return invalid(at, "enum", (params.allowedValues as readonly string[]).join(", "));
    case "pattern":
      return invalid(at, "pattern", params.pattern);
    case "minItems":
      return invalid(at, "minItems", params.limit);
    case "minLength":
      return invalid(at, "minLength");
    case "minimum":
      return invalid(at, "minimum", params.limit);
    default:
      return invalid(at, "schema", error.message ?? error.keyword);
  }
}

/** Subjects sorted by name in code-unit order, each name once. */
function subjectOrder(subjects: readonly unknown[]): ApprovalReason[] {
  const out: ApprovalReason[] = [];
  const first = new Map<string, number>();
  let previous: string | undefined;
  subjects.forEach((subject, index) => {
    const name = (subject as { name?: unknown } | null)?.name;
    if (typeof name !== "string") return;
    const seen = first.get(name);
    if (seen !== undefined) {
      out.push(approvalReason("SUBJECT_DUPLICATE", { name, index, first: seen }));
    } else {
      first.set(name, index);
      if (previous !== undefined && byCodeUnits(previous, name) > 0) {
        out.push(approvalReason("SUBJECTS_UNSORTED", { name, index, previous }));
      }
    }
    previous = name;
  });
  return out;
}

/** Names sorted and unique, else one reason at the first out of place. */
function sortedUnique(
  names: readonly string[],
  pointer: (index: number) => string,
  unsorted: StatementProblemKind,
  duplicate: StatementProblemKind,
): ApprovalReason[] {
  const out: ApprovalReason[] = [];
  for (let i = 1; i < names.length; i++) {
    const order = byCodeUnits(names[i - 1] ?? "", names[i] ?? "");
    if (order === 0) {
      out.push(
        approvalReason("STATEMENT_INVALID", {
          pointer: pointer(i),
          problem: duplicate,
          detail: names[i] ?? "",
        }),
      );
    } else if (order > 0) {
      out.push(
        approvalReason("STATEMENT_INVALID", {
          pointer: pointer(i),
          problem: unsorted,
          detail: names[i - 1] ?? "",
        }),
      );
    }
  }
  return out;
}

/** What the schema cannot say about a statement it accepts. */
function decisionNames(statement: ApprovalStatement): ApprovalReason[] {
  const out: ApprovalReason[] = [];
  const kinds = new Map(statement.subject.map((s) => [s.name, s.annotations.agentflowKind]));
  const notSubject = (pointer: string, name: string | null): void => {
    if (name !== null && !kinds.has(name)) {
      out.push(
        approvalReason("STATEMENT_INVALID", { pointer, problem: "name-not-subject", detail: name }),
      );
    }
  };
  const { processes, approver, inputs } = statement.predicate;
  // The config the gate read decides the run: named, it must be approved by its bytes, or a
  // verify would read "no config" where the file has gone and ignore one that came instead.
  if (inputs.config !== null && kinds.get(inputs.config) !== "config") {
    out.push(
      approvalReason("STATEMENT_INVALID", {
        pointer: "/predicate/inputs/config",
        problem: "config-not-subject",
        detail: inputs.config,
      }),
    );
  }
  if (!isTime(approver.time)) {
    out.push(
      approvalReason("STATEMENT_INVALID", {
        pointer: "/predicate/approver/time",
        problem: "time",
        detail: approver.time,
      }),
    );
  }
  const at = (i: number) => `/predicate/processes/${String(i)}`;
  processes.forEach((process, i) => {
    if (kinds.get(process.name) !== "process") {
      out.push(
        approvalReason("STATEMENT_INVALID", {
          pointer: `${at(i)}/name`,
          problem: "process-not-subject",
        }),
      );
    }
    const tasks = (t: number) => `${at(i)}/agentTasks/${String(t)}`;
    out.push(
      ...sortedUnique(
        process.agentTasks.map((t) => t.elementId),
        (t) => `${tasks(t)}/elementId`,
        "tasks-unsorted",
        "task-duplicate",
      ),
    );
    process.agentTasks.forEach((task, t) => {
      notSubject(`${tasks(t)}/workflow`, task.workflow);
      task.dependencies.forEach((d, k) => {
        notSubject(`${tasks(t)}/dependencies/${String(k)}/name`, d.name);
      });
    });
  });
  out.push(
    ...sortedUnique(
      processes.map((p) => p.name),
      (i) => `${at(i)}/name`,
      "processes-unsorted",
      "process-duplicate",
    ),
  );
  return out;
}

/**
 * Every way `value` is not an agentflow approval statement; empty when it is one. Subject order
 * and uniqueness are checked even when the shape is wrong elsewhere (each is its own reason).
 *
 * @example
 * ```ts
 * import { createStatement, statementProblems } from "agentflow/approval";
 * import type { StatementInput } from "agentflow/approval";
 * import { AGENTFLOW_VERSION } from "agentflow/model";
 *
 * const input: StatementInput = {
 *   files: [{ name: "processes/loan.bpmn", kind: "process", bytes: "<definitions/>\n" }],
 *   processes: [{ name: "processes/loan.bpmn", processIds: ["Loan"], allowed: true, agentTasks: [] }],
 *   inputs: { paths: ["processes/loan.bpmn"], registry: [], config: null },
 *   ruleSet: { digest: "sha256:4bfaa9f8a7cb", preset: "recommended" },
 *   version: AGENTFLOW_VERSION,
 *   approver: { role: "credit-officer", time: "2026-01-31T09:30:00Z" },
 * };
 * const statement = createStatement({
 *   ...input,
 *   files: [...input.files, { name: "agentflow.config.json", kind: "config", bytes: "{}" }],
 * });
 * statementProblems(statement); // → []
 * const reordered = { ...statement, subject: [...statement.subject].reverse() };
 * statementProblems(reordered).map((r) => r.code); // → ["SUBJECTS_UNSORTED"]
 * statementProblems({ _type: "https://in-toto.io/Statement/v1" }).map((r) => r.message)[0];
 * // → "statement subject: missing"
 * ```
 */
export function statementProblems(value: unknown): ApprovalReason[] {
  const check = validator();
  const valid = check(value);
  const out: ApprovalReason[] = [];
  const seen = new Set<string>();
  for (const error of valid ? [] : (check.errors ?? [])) {
    const reason = schemaReason(error);
    if (reason === undefined || seen.has(reason.message)) continue;
    seen.add(reason.message);
    out.push(reason);
  }
  const subjects = (value as { subject?: unknown } | null)?.subject;
  if (Array.isArray(subjects)) out.push(...subjectOrder(subjects));
  if (valid) out.push(...decisionNames(value as ApprovalStatement));
  return out;
}

/**
 * One reason per process a statement records as blocked. The statement's shape allows it (the
 * statement the files give now, which a verify compares, may be blocked), but an approval of a
 * blocked promotion approves nothing: signing and verifying refuse it.
 */
export function blockedReasons(statement: ApprovalStatement): ApprovalReason[] {
  return statement.predicate.processes
    .filter((p) => !p.allowed)
    .map((p) => approvalReason("PROCESS_BLOCKED", { process: p.name }));
}
