/**
 * The template language of tool params (SPEC 2.1, 5): `{{<nodeId>.output.<path>}}` reads a
 * node's last output and `{{input.<field>}}` the workflow's input. Shared by TEMPLATE_UNRESOLVABLE
 * (which nodes a template names) and TOOL_PARAMS_MISMATCH (the type a whole-template value has).
 * Scanning is linear (`indexOf`, no regex), and walking params is iterative, so hostile strings
 * and deeply nested params cost their size and no stack.
 */

/** Why a `{{…}}` is not a template agentflow can read. */
export type TemplateSyntaxProblem =
  "empty" | "unterminated" | "empty-node" | "empty-path" | "no-output";

/** What a template names: a node's output, the workflow's input, or nothing readable. */
export type TemplateTarget =
  | { readonly kind: "node"; readonly nodeId: string; readonly path: readonly string[] }
  | { readonly kind: "input"; readonly field: string; readonly path: readonly string[] }
  | { readonly kind: "syntax"; readonly problem: TemplateSyntaxProblem };

/** One `{{…}}` of a param string; `start`/`end` delimit it, braces included. */
export type TemplateRef = TemplateTarget & {
  readonly start: number;
  readonly end: number;
  /** The text between the braces, trimmed. */
  readonly expression: string;
};

const OUTPUT = ".output.";

/**
 * `<nodeId>.output.<path>` (split at the first `.output.`: node ids may hold dots) or
 * `input.<field>…`. A node whose id is `input` wins over the workflow input.
 */
function parseExpression(expression: string, hasNode: (id: string) => boolean): TemplateTarget {
  if (expression === "") return { kind: "syntax", problem: "empty" };
  const at = expression.indexOf(OUTPUT);
  if (expression.startsWith("input.") && !(at === 5 && hasNode("input"))) {
    const path = expression.slice(6).split(".");
    if (path.some((s) => s === "")) return { kind: "syntax", problem: "empty-path" };
    const [field = "", ...rest] = path;
    return { kind: "input", field, path: rest };
  }
  if (at < 0) return { kind: "syntax", problem: "no-output" };
  if (at === 0) return { kind: "syntax", problem: "empty-node" };
  const path = expression.slice(at + OUTPUT.length).split(".");
  if (path.some((s) => s === "")) return { kind: "syntax", problem: "empty-path" };
  return { kind: "node", nodeId: expression.slice(0, at), path };
}

/**
 * Every `{{…}}` in `text`, in order, by a linear scan (no regex); an unclosed `{{` ends it.
 *
 * @example
 * ```ts
 * import { scanTemplates } from "agentflow/model";
 *
 * const isNode = (id: string) => id === "search";
 * const refs = scanTemplates("Summarise {{search.output.results}} for {{input.topic}}", isNode);
 * refs[0];
 * // → { start: 10, end: 35, expression: "search.output.results", kind: "node", nodeId: "search", path: ["results"] }
 * refs[1];
 * // → { start: 40, end: 55, expression: "input.topic", kind: "input", field: "topic", path: [] }
 * scanTemplates("{{ search.output }}", isNode)[0]?.kind; // → "syntax"
 * ```
 */
export function scanTemplates(text: string, hasNode: (id: string) => boolean): TemplateRef[] {
  const out: TemplateRef[] = [];
  for (let at = text.indexOf("{{"); at >= 0; at = text.indexOf("{{", at)) {
    const close = text.indexOf("}}", at + 2);
    if (close < 0) {
      const expression = text.slice(at + 2).trim();
      out.push({
        start: at,
        end: text.length,
        expression,
        kind: "syntax",
        problem: "unterminated",
      });
      break;
    }
    const expression = text.slice(at + 2, close).trim();
    out.push({ start: at, end: close + 2, expression, ...parseExpression(expression, hasNode) });
    at = close + 2;
  }
  return out;
}

interface Link {
  readonly token: string;
  readonly parent: Link | undefined;
  /** How many tokens the chain up to the root holds. */
  readonly depth: number;
}

/**
 * The strings holding `{{` anywhere in `params`, in document order, with their pointer tokens;
 * with `keep`, only the strings it accepts (it is given how many tokens a string would get, its
 * depth, before they are built). Building a string's tokens costs its depth, so this
 * costs the size of `params` plus the tokens returned: callers that need only the texts use
 * {@link forEachTemplateString}, and callers that need the tokens of a few strings pass `keep`,
 * which keeps 10,000-deep params with a template at every level linear.
 *
 * @example
 * ```ts
 * import { templateStrings } from "agentflow/model";
 *
 * templateStrings({ query: "{{plan.output.query}}", filters: { site: "{{input.site}}", lang: "en" } });
 * // → [{ tokens: ["query"], text: "{{plan.output.query}}" }, { tokens: ["filters", "site"], text: "{{input.site}}" }]
 * templateStrings({ a: "{{x.output.y}}", b: "{{input.z}}" }, (text) => text.includes("input"));
 * // → [{ tokens: ["b"], text: "{{input.z}}" }]
 * ```
 */
export function templateStrings(
  params: unknown,
  keep?: (text: string, depth: number) => boolean,
): { tokens: string[]; text: string }[] {
  const out: { tokens: string[]; text: string }[] = [];
  forEachTemplateEntry(params, keep, (text, tokens) => {
    out.push({ tokens: [...tokens()], text });
  });
  return out;
}

/** The tokens of a string of a flat params object: one array, refilled for each string. */
const FLAT_TOKENS: string[] = [""];

/** The pointer tokens of the flat params object's current string. */
const flatTokens = (): readonly string[] => FLAT_TOKENS;

/** The tokens from the root down to `link`. */
function tokensOf(link: Link | undefined): string[] {
  const tokens: string[] = [];
  for (let l = link; l !== undefined; l = l.parent) tokens.push(l.token);
  return tokens.reverse();
}

/**
 * {@link templateStrings} as a visitor: calls `visit` with each string holding `{{` anywhere in
 * `params` that `keep` accepts, in document order, and a function that gives its pointer tokens.
 * The tokens are built only when asked, and valid only during the call (a flat params object
 * reuses one array): a string 10,000 levels down has 10,000 of them, so building them for every
 * string of deep params is quadratic, and a caller that lists only the first thousand strings
 * (an export's warnings) or reports a few among 100,000 nodes pays for no others.
 */
export function forEachTemplateEntry(
  params: unknown,
  keep: ((text: string, depth: number) => boolean) | undefined,
  visit: (text: string, tokens: () => readonly string[]) => void,
): void {
  if (typeof params === "object" && params !== null && isFlat(params)) {
    // The common flat params object: no walk, no links.
    const record = params as Record<string, unknown>;
    for (const key in record) {
      const value = record[key];
      if (!Object.hasOwn(record, key) || typeof value !== "string" || !value.includes("{{"))
        continue;
      if (keep !== undefined && !keep(value, 1)) continue;
      FLAT_TOKENS[0] = key;
      visit(value, flatTokens);
    }
    return;
  }
  const seen = new Set<object>(); // a programmatic (non-JSON) document may share or cycle objects
  const stack: { value: unknown; link: Link | undefined }[] = [{ value: params, link: undefined }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, link } = item;
    if (typeof value === "string") {
      const depth = link?.depth ?? 0;
      if (!value.includes("{{") || (keep !== undefined && !keep(value, depth))) continue;
      visit(value, () => tokensOf(link));
    } else if (typeof value === "object" && value !== null && !seen.has(value)) {
      seen.add(value);
      const entries: [string, unknown][] = Object.entries(value);
      for (let k = entries.length - 1; k >= 0; k -= 1) {
        const entry = entries[k];
        if (entry !== undefined)
          stack.push({
            value: entry[1],
            link: { token: entry[0], parent: link, depth: (link?.depth ?? 0) + 1 },
          });
      }
    }
  }
}

/**
 * The template a string consists of entirely (`"{{plan.output.query}}"`), whose value keeps
 * the referenced field's type; undefined when the string is text, with or without templates.
 *
 * @example
 * ```ts
 * import { wholeTemplate } from "agentflow/model";
 *
 * const isNode = (id: string) => id === "search";
 * // the whole string is one template: its value keeps the field's type
 * wholeTemplate("{{search.output.results}}", isNode)?.kind; // → "node"
 * // text with a template in it is always text
 * wholeTemplate("top: {{search.output.results}}", isNode); // → undefined
 * ```
 */
export function wholeTemplate(
  text: string,
  hasNode: (id: string) => boolean,
): TemplateRef | undefined {
  if (!text.startsWith("{{") || !text.endsWith("}}")) return undefined;
  const refs = scanTemplates(text, hasNode);
  const only = refs[0];
  return refs.length === 1 && only?.end === text.length ? only : undefined;
}

/** What {@link forEachTemplate} found: a node reference, an input reference, or unreadable. */
export type TemplateKind = "node" | "input" | "syntax";

/**
 * Calls `visit` for each `{{…}}` of `text` with its kind and, for `node` and `input`, the node id
 * or input field. The same reading as {@link scanTemplates} without building a record per
 * template: rules that only need the names ask this first and scan fully only what they report.
 *
 * @example
 * ```ts
 * import { forEachTemplate } from "agentflow/model";
 *
 * const seen: string[] = [];
 * forEachTemplate("{{search.output.hits}} for {{input.q}} {{oops}}", (id) => id === "search", (kind, name) => {
 *   seen.push(`${kind}:${name}`);
 * });
 * seen; // → ["node:search", "input:q", "syntax:"]
 * ```
 */
export function forEachTemplate(
  text: string,
  hasNode: (id: string) => boolean,
  visit: (kind: TemplateKind, name: string) => void,
): void {
  for (let at = text.indexOf("{{"); at >= 0;) {
    const close = text.indexOf("}}", at + 2);
    if (close < 0) {
      visit("syntax", "");
      return;
    }
    const expression = text.slice(at + 2, close).trim();
    at = text.indexOf("{{", close + 2);
    const target = parseExpression(expression, hasNode);
    if (target.kind === "node") visit("node", target.nodeId);
    else if (target.kind === "input") visit("input", target.field);
    else visit("syntax", "");
  }
}

/**
 * Calls `visit` for each string holding `{{` anywhere in `params`, in document order:
 * {@link templateStrings} without the pointer tokens, so linear in the size of `params` however
 * deep, and without any allocation for the common flat params object.
 *
 * @example
 * ```ts
 * import { forEachTemplateString } from "agentflow/model";
 *
 * const texts: string[] = [];
 * forEachTemplateString({ query: "{{plan.output.query}}", limit: 10, lang: "en" }, (text) => {
 *   texts.push(text);
 * });
 * texts; // → ["{{plan.output.query}}"]
 * ```
 */
export function forEachTemplateString(params: unknown, visit: (text: string) => void): void {
  if (typeof params === "object" && params !== null && isFlat(params)) {
    const record = params as Record<string, unknown>;
    for (const key in record) {
      const value = record[key];
      if (Object.hasOwn(record, key) && typeof value === "string" && value.includes("{{"))
        visit(value);
    }
    return;
  }
  const seen = new Set<object>(); // a programmatic (non-JSON) document may share or cycle objects
  const stack: unknown[] = [params];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === "string") {
      if (value.includes("{{")) visit(value);
    } else if (typeof value === "object" && value !== null && !seen.has(value)) {
      seen.add(value);
      const values: unknown[] = Object.values(value);
      for (let k = values.length - 1; k >= 0; k -= 1) stack.push(values[k]);
    }
  }
}

/** True when no own value of `record` is an object (or array): its strings are all there is. */
function isFlat(record: object): boolean {
  const values = record as Record<string, unknown>;
  for (const key in values) {
    const value = values[key];
    if (Object.hasOwn(values, key) && typeof value === "object" && value !== null) return false;
  }
  return true;
}
