/**
 * fast-check arbitraries shared by the property suites and `scripts/fuzz.ts`: valid-ish
 * AgentWorkflow documents (every node type, decorators, both decision forms, routes to nodes,
 * `end` or nowhere, duplicate and prototype-member ids, odd refs, conditions and type
 * expressions), text close to JSON, YAML and BPMN, and key-reordered copies of JSON values.
 */
import fc from "fast-check";
import type {
  AgentEdge,
  AgentNode,
  AgentWorkflow,
  Decorator,
  FieldType,
  Route,
  SchemaShape,
} from "../../src/model/index.js";

/** Node ids: a small pool so that edges and routes hit, with `end`. */
export const PLAIN_IDS = ["a", "b", "c", "n0", "llm-1", "dec.2", "end"];
/** Node ids that are `Object.prototype` members. */
export const PROTO_IDS = ["constructor", "__proto__", "toString"];
const REFS = [
  "tool:search@1.0.0",
  "tool:search@1",
  "prm:p@2.0.0-rc.1",
  "agnt-x@1.0.0",
  "agnt-x@latest",
  "x",
  "@1.0.0",
  "tool:a@1.0.0@2",
  "constructor@1.0.0",
  "",
];
const CONDITIONS = [
  "output.done = true",
  "output.n > 2 and output.n < 5",
  'output.kind = "a" or not(output.done)',
  "output.items != null",
  "count(output.items) > 2",
  "output.a >",
  "output.x === 1",
  "output.__proto__.polluted = 1",
  "the answer is complete",
  "",
  "((((output.n))))",
];
const TYPES = [
  "text",
  "number",
  "integer",
  "bool",
  "path",
  "duration",
  "any",
  "text[]",
  "Item",
  "Item[1..3]",
  "number[2..1]",
  "member<Team>",
  "Nope",
  "text[",
];
const FIELD_NAMES = ["q", "a", "done", "n", "items", "kind", "x?", "__proto__", "constructor"];
const TEMPLATES = [
  "{{input.q}}",
  "{{a.output.x}}",
  "{{llm-1.output.items}}",
  "{{ghost.output.x}}",
  "{{",
  "plain",
  "{{input.__proto__}}",
];

const fieldType: fc.Arbitrary<FieldType> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...TYPES) },
  fc.constantFrom<FieldType>(
    { type: "string" },
    { type: "object", properties: { a: { type: "number" } }, required: ["a"] },
    { type: "array", items: { $ref: "#" } },
    { type: "strange" },
  ),
);

/** A schema shape: a few fields with type expressions or JSON Schema objects. */
export const shapeArb: fc.Arbitrary<SchemaShape> = fc.dictionary(
  fc.constantFrom(...FIELD_NAMES),
  fieldType,
  { maxKeys: 4 },
);

function routeArb(ids: readonly string[]): fc.Arbitrary<Route> {
  return fc
    .tuple(fc.constantFrom(...ids, "end", "end", "ghost"), fc.option(fc.nat(4), { nil: undefined }))
    .map(([next, maxRetries]) => (maxRetries === undefined ? { next } : { next, maxRetries }));
}

const decoratorArb: fc.Arbitrary<Decorator> = fc.oneof(
  fc
    .constantFrom("short" as const, "long" as const)
    .map((scope) => ({ type: "memory" as const, scope })),
  fc.constantFrom("static" as const, "dynamic" as const).map((strategy) => ({
    type: "planner" as const,
    strategy,
  })),
  fc
    .tuple(fc.nat(4), fc.constantFrom("fixed" as const, "exponential" as const))
    .map(([maxRetries, backoff]) => ({ type: "errorBoundary" as const, maxRetries, backoff })),
);

const nameArb = fc.option(fc.oneof(fc.string({ maxLength: 8 }), fc.constant("__proto__")), {
  nil: undefined,
});

function withExtras<N extends AgentNode>(
  node: N,
  name: string | undefined,
  decorators: readonly Decorator[],
): N {
  return {
    ...node,
    ...(name === undefined ? {} : { name }),
    ...(decorators.length === 0 ? {} : { decorators }),
  };
}

const llmArb = (ids: readonly string[]): fc.Arbitrary<AgentNode> =>
  fc
    .record({
      id: fc.constantFrom(...ids),
      name: nameArb,
      decorators: fc.array(decoratorArb, { maxLength: 2 }),
      promptRef: fc.constantFrom(...REFS),
      structured: fc.boolean(),
      outputSchema: fc.option(shapeArb, { nil: undefined }),
    })
    .map((r) =>
      withExtras<AgentNode>(
        {
          id: r.id,
          type: "llm",
          config: {
            model: "m",
            promptRef: r.promptRef,
            structuredOutput: r.structured,
            ...(r.outputSchema === undefined ? {} : { outputSchema: r.outputSchema }),
          },
        },
        r.name,
        r.decorators,
      ),
    );

const toolArb = (ids: readonly string[]): fc.Arbitrary<AgentNode> =>
  fc
    .record({
      id: fc.constantFrom(...ids),
      name: nameArb,
      decorators: fc.array(decoratorArb, { maxLength: 2 }),
      usesTool: fc.constantFrom(...REFS),
      params: fc.dictionary(
        fc.constantFrom(...FIELD_NAMES),
        fc.oneof(fc.constantFrom(...TEMPLATES), fc.jsonValue({ maxDepth: 2 })),
        { maxKeys: 3 },
      ),
    })
    .map((r) =>
      withExtras<AgentNode>(
        { id: r.id, type: "tool", config: { usesTool: r.usesTool, params: r.params } },
        r.name,
        r.decorators,
      ),
    );

const decisionArb = (ids: readonly string[]): fc.Arbitrary<AgentNode> =>
  fc
    .record({
      id: fc.constantFrom(...ids),
      name: nameArb,
      condition: fc.constantFrom(...CONDITIONS),
      onTrue: routeArb(ids),
      onFalse: routeArb(ids),
      cases: fc.array(
        fc
          .tuple(fc.constantFrom(...CONDITIONS), routeArb(ids))
          .map(([condition, r]) => ({ ...r, condition })),
        { maxLength: 3 },
      ),
      text: fc.boolean(),
    })
    .map((r): AgentNode => {
      const language = r.text ? { conditionLanguage: "text" as const } : {};
      const [first, ...rest] = r.cases;
      const config =
        first === undefined
          ? { condition: r.condition, onTrue: r.onTrue, onFalse: r.onFalse, ...language }
          : { cases: [first, ...rest], otherwise: r.onFalse, ...language };
      return withExtras<AgentNode>({ id: r.id, type: "decision", config }, r.name, []);
    });

const edgeArb = (ids: readonly string[]): fc.Arbitrary<AgentEdge> =>
  fc
    .record({
      from: fc.constantFrom(...ids, "ghost"),
      to: fc.constantFrom(...ids, "ghost"),
      ref: fc.constantFrom(...REFS),
      kind: fc.constantFrom("toolCall" as const, "data" as const, "delegate" as const),
      when: fc.option(fc.constantFrom("retry", "yes", ""), { nil: undefined }),
    })
    .map(({ from, to, ref, kind, when }) => ({
      from,
      to: kind === "delegate" ? ref : to,
      edgeType: kind,
      ...(when === undefined ? {} : { when }),
    }));

/** Options of {@link workflowArbitrary}. */
export interface WorkflowArbOptions {
  /** Whether node ids may be `Object.prototype` members (default true). */
  readonly protoIds?: boolean;
  /** Most nodes (default 8). */
  readonly maxNodes?: number;
}

/** Valid-ish AgentWorkflows: structurally typed, semantically anything. */
export function workflowArbitrary(options: WorkflowArbOptions = {}): fc.Arbitrary<AgentWorkflow> {
  const ids = options.protoIds === false ? PLAIN_IDS : [...PLAIN_IDS, ...PROTO_IDS];
  const maxNodes = options.maxNodes ?? 8;
  return fc
    .record({
      id: fc.constantFrom("agnt-a", "agnt-b.c", "x:y"),
      version: fc.constantFrom("1.0.0", "2.1.0-rc.1", "1", "x"),
      name: fc.string({ maxLength: 10 }),
      autonomyLevel: fc.constantFrom(
        0 as const,
        1 as const,
        2 as const,
        3 as const,
        4 as const,
        5 as const,
      ),
      inputSchema: shapeArb,
      outputSchema: shapeArb,
      types: fc.option(
        fc.dictionary(fc.constantFrom("Item", "Team", "constructor"), shapeArb, { maxKeys: 2 }),
        { nil: undefined },
      ),
      nodes: fc.array(fc.oneof(llmArb(ids), toolArb(ids), decisionArb(ids)), {
        maxLength: maxNodes,
      }),
      edges: fc.array(edgeArb(ids), { maxLength: maxNodes + 2 }),
      budget: fc.option(
        fc.record(
          {
            maxSteps: fc.integer({ min: 1, max: 40 }),
            maxTokens: fc.integer({ min: 1, max: 1e6 }),
          },
          { requiredKeys: [] },
        ),
        { nil: undefined },
      ),
      metadata: fc.option(
        fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })),
        {
          nil: undefined,
        },
      ),
    })
    .map(({ types, budget, metadata, ...rest }) => ({
      kind: "AgentWorkflow" as const,
      ...rest,
      ...(types === undefined ? {} : { types }),
      ...(budget === undefined ? {} : { budget }),
      ...(metadata === undefined ? {} : { metadata }),
    }));
}

/** Valid-ish AgentWorkflows with every hostile id. */
export const workflowArb: fc.Arbitrary<AgentWorkflow> = workflowArbitrary();
