/**
 * The parameters a Camunda tool asks the model for: each `fromAi(toolCall.<name>, ...)` call in
 * its input mappings (the first argument, positional or named `value:`, is a `toolCall` path whose
 * last segment names the parameter). Several calls may share one expression.
 */

/** `fromAi(` then the first argument's `toolCall.a.b` path; each repetition starts at a `.`. */
const FROM_AI = /\bfromAi\s*\(\s*(?:value\s*:\s*)?toolCall((?:\.[A-Za-z_$][\w$]*)+)/g;

/**
 * The parameter names in these input sources, first occurrence first. Only FEEL sources
 * (starting with `=`) can call `fromAi`.
 */
export function fromAiParameters(sources: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const source of sources) {
    if (!source.trimStart().startsWith("=")) continue;
    for (const match of source.matchAll(FROM_AI)) {
      const path = match[1] ?? "";
      const name = path.slice(path.lastIndexOf(".") + 1);
      if (name !== "") out.add(name);
    }
  }
  return [...out];
}
