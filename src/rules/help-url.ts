/**
 * Where a rule's documentation lives. Every rule has a page `docs/rules/<code>.md`; the reports
 * (SARIF, JUnit), the bpmnlint plugin and the CLI link to it, so the address is the rule kit's,
 * not any one output's.
 */

/** Where the rule pages are published; each code's page is `<base><code>.md`. */
export const DOCS_BASE_URL = "https://agentflow.dev/docs/rules/";

/**
 * Replaces lone UTF-16 surrogates with U+FFFD, because `encodeURIComponent` throws on them and a
 * report must never throw on what a user's document (or file name) contains.
 */
function wellFormed(text: string): string {
  return text.replace(
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    "\uFFFD",
  );
}

/**
 * Percent-encodes one URI segment (RFC 3986) without ever throwing. Codes and file names come from
 * users, and SARIF requires `helpUri` and artifact URIs to be valid URIs.
 */
export function encodeUriSegment(text: string): string {
  return encodeURIComponent(wellFormed(text));
}

/**
 * The documentation URL of a code. The code is percent-encoded so that even a malformed code
 * yields a valid URI; well-formed codes (`A-Z`, `_`) are unchanged.
 *
 * @example
 * ```ts
 * import { ruleHelpUri } from "agentflow/rules";
 *
 * ruleHelpUri("RETRY_WITHOUT_MAX"); // → "https://agentflow.dev/docs/rules/RETRY_WITHOUT_MAX.md"
 * ruleHelpUri("RETRY_WITHOUT_MAX", "https://docs.example.com/rules/");
 * // → "https://docs.example.com/rules/RETRY_WITHOUT_MAX.md"
 * ```
 */
export function ruleHelpUri(code: string, base: string = DOCS_BASE_URL): string {
  return `${base}${encodeUriSegment(code)}.md`;
}
