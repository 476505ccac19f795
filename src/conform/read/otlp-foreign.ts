/**
 * Spans that say what they did in another convention than the OpenTelemetry GenAI one: an
 * OpenInference TOOL or LLM span, an OpenLLMetry (Traceloop) tool or task, a model call recorded
 * with `gen_ai.*` model attributes and no `gen_ai.operation.name`. Such a span is an operation —
 * a tool that ran, a model that was called, an agent — not the plumbing of the step it lies
 * under (the HTTP request a model client makes), so it is said as a record not read, naming the
 * convention, never taken as part of the step.
 */
import type { Span } from "./otlp-span.js";

/** A convention by the attribute that declares a span's kind in it. */
const KIND_KEYS: readonly (readonly [key: string, convention: string])[] = [
  ["openinference.span.kind", "OpenInference"],
  ["traceloop.span.kind", "OpenLLMetry (Traceloop)"],
  ["langsmith.span.kind", "LangSmith"],
  ["mlflow.spanType", "MLflow"],
  ["langfuse.observation.type", "Langfuse"],
  ["ai.operationId", "the Vercel AI SDK"],
];

/** Attribute prefixes that record a model call or a tool call in another convention. */
const PREFIXES: readonly (readonly [prefix: string, what: string])[] = [
  ["llm.", "llm.* attributes of OpenInference or OpenLLMetry"],
  ["tool.", "tool.* attributes of OpenInference"],
  ["traceloop.", "traceloop.* attributes of OpenLLMetry"],
];

/** Attributes that name what the span ran, shown with its kind (the first two recorded). */
const NAMES = [
  "tool.name",
  "llm.model_name",
  "llm.request.model",
  "gen_ai.request.model",
  "gen_ai.response.model",
  "traceloop.entity.name",
  "agent.name",
  "ai.model.id",
];

/** The `gen_ai.*` attributes only a model call records. */
const MODEL_CALL = [
  "gen_ai.request.model",
  "gen_ai.response.model",
  "gen_ai.system",
  "gen_ai.provider.name",
];

/**
 * A value as a message names it: a scalar as written, cut at 60 characters; a structured one
 * only as such, since writing it out would recurse as deep as the span nests it.
 */
const shown = (value: unknown): string => {
  if (typeof value === "object" && value !== null)
    return Array.isArray(value) ? "(a list)" : "(an object)";
  const text = typeof value === "string" ? value : String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
};

function named(span: Span, skip: string): string[] {
  const values = span.attributes.values;
  return NAMES.filter((key) => key !== skip && values.has(key))
    .slice(0, 2)
    .map((key) => `${key} = ${shown(values.get(key))}`);
}

/**
 * What the span declares itself in another convention, as a predicate (`is of kind TOOL in
 * OpenInference (openinference.span.kind = TOOL, tool.name = delete_customer)`), or `undefined`
 * when it declares nothing the reader knows of.
 */
export function foreignOperation(span: Span): string | undefined {
  const values = span.attributes.values;
  for (const [key, convention] of KIND_KEYS) {
    if (!values.has(key)) continue;
    const kind = shown(values.get(key));
    const attrs = [`${key} = ${kind}`, ...named(span, key)].join(", ");
    return `is of kind ${kind} in ${convention} (${attrs})`;
  }
  for (const [prefix, what] of PREFIXES) {
    const keys = [...values.keys()].filter((k) => k.startsWith(prefix));
    const key = NAMES.find((name) => keys.includes(name)) ?? keys[0];
    if (key !== undefined) return `records ${what} (${key} = ${shown(values.get(key))})`;
  }
  return undefined;
}

/**
 * Why a span in a run is not read, when it is no GenAI step and no decision: a model call
 * recorded without `gen_ai.operation.name`, an operation of another convention, or neither.
 */
export function otherSpanReason(span: Span): string {
  const values = span.attributes.values;
  const foreign = foreignOperation(span);
  const model = MODEL_CALL.find((key) => values.has(key));
  if (model !== undefined) {
    const by = foreign === undefined ? "" : `; it ${foreign}`;
    return `the span records a model call (${model} = ${shown(values.get(model))}) without gen_ai.operation.name, so it is read as no step${by}`;
  }
  if (foreign !== undefined) {
    return `the span ${foreign}: an operation recorded in a convention this reader does not read (it reads the OpenTelemetry GenAI conventions), so what it did is not checked`;
  }
  return "the span is neither a GenAI operation nor a decision recorded with agentflow.route.*";
}
