/**
 * Versioned references `id@version` (SPEC 2.3): prompts (`prm:research@2.0.0`), tool contracts
 * (`tool:browser-search@1.2.0`) and delegate agents (`agnt-verify@1.0.0`).
 */
// The two functions, not semver's index: it loads every module of the package, a share of a bare
// import.
import parseSemver from "semver/functions/parse.js";
import validRange from "semver/ranges/valid.js";
import { visibleText } from "./text/index.js";

/** A reference split into its parts. `version` is always a full semver version. */
export interface Ref {
  readonly id: string;
  readonly version: string;
}

/** Why a reference was rejected; stable values so that callers need not read messages. */
export type RefErrorReason =
  | "not-a-string"
  | "missing-version"
  | "empty-id"
  | "invalid-id"
  | "empty-version"
  | "range"
  | "tag"
  | "invalid-version";

/** The outcome of {@link parseRef}. */
export type RefParseResult =
  | {
      readonly ok: true;
      readonly ref: Ref;
      /** The version was written as `2` or `2.1` and was normalised to `2.0.0` / `2.1.0`. */
      readonly abbreviated: boolean;
      /** The normalised `id@x.y.z` form. */
      readonly canonical: string;
    }
  | { readonly ok: false; readonly reason: RefErrorReason; readonly message: string };

/** Ids start with a letter, then letters, digits, `.`, `_`, `:` or `-` (no nested quantifiers). */
const ID_PATTERN = /^[A-Za-z][A-Za-z0-9._:-]*$/;
const ABBREVIATED = /^(0|[1-9][0-9]{0,15})(\.(0|[1-9][0-9]{0,15}))?$/;
const RANGE_CHARS = /[\^~<>=*| ]|^[xX*]$|\.[xX*]/;
const TAG = /^[A-Za-z][A-Za-z0-9-]{0,63}$/;

/**
 * True when `id` is a well-formed workflow, prompt, tool or agent id.
 *
 * @example
 * ```ts
 * import { isValidId } from "agentflow/model";
 *
 * isValidId("tool:browser-search"); // → true
 * isValidId("1tool"); // → false
 * ```
 */
export function isValidId(id: string): boolean {
  return id.length <= 256 && ID_PATTERN.test(id);
}

/**
 * The ids no node may take: each is a word routes give a meaning of their own. A route
 * `next: "end"` finishes the run, so a node called `end` could never be reached by a route.
 * Validation refuses such a node (`NODE_ID_RESERVED`); every importer renames it (`end-2`).
 */
export const RESERVED_NODE_IDS: ReadonlySet<string> = new Set(["end"]);

/** Whether `id` is a route keyword, which no node may take as its id ({@link RESERVED_NODE_IDS}). */
export function isReservedNodeId(id: string): boolean {
  return RESERVED_NODE_IDS.has(id);
}

function fail(
  reason: RefErrorReason,
  message: string,
): { readonly ok: false; readonly reason: RefErrorReason; readonly message: string } {
  return { ok: false, reason, message };
}

/** The outcome of {@link parseVersion}. */
export type VersionParseResult =
  | { readonly ok: true; readonly version: string; readonly abbreviated: boolean }
  | { readonly ok: false; readonly reason: RefErrorReason; readonly message: string };

/**
 * Parses the version part of a reference (or a workflow's own `version`). Abbreviated versions
 * (`2`, `2.1`) are accepted and normalised, the caller reporting the warning; ranges, tags such as
 * `latest`, and anything that is not an exact version are rejected, because a document must name
 * exactly what was reviewed.
 *
 * @example
 * ```ts
 * import { parseVersion } from "agentflow/model";
 *
 * parseVersion("2.1"); // → { ok: true, version: "2.1.0", abbreviated: true }
 * parseVersion("1.0.0-rc.1"); // → { ok: true, version: "1.0.0-rc.1", abbreviated: false }
 *
 * const range = parseVersion("^1.0.0");
 * if (!range.ok) {
 *   range.reason; // → "range"
 *   range.message; // → "'^1.0.0' is a version range; a reference must name one exact version"
 * }
 * ```
 */
export function parseVersion(version: string): VersionParseResult {
  if (version === "") return fail("empty-version", "the version after '@' is empty");
  if (version.length > 256)
    return fail("invalid-version", "the version is longer than 256 characters");
  // semver trims what it parses but keeps the untrimmed text as `raw`, so "1.0.0 " passed as
  // exact: a second document filed under a key that prints like the reviewed one's.
  const trimmed = version.trim();
  if (trimmed !== version && (ABBREVIATED.test(trimmed) || parseSemver(trimmed)?.raw === trimmed)) {
    return fail(
      "invalid-version",
      `'${visibleText(version.slice(0, 64))}' holds white space, which no semantic version has`,
    );
  }
  if (ABBREVIATED.test(version)) {
    const parts = version.split(".");
    while (parts.length < 3) parts.push("0");
    return { ok: true, version: parts.join("."), abbreviated: true };
  }
  // parseSemver accepts a leading "v" or "=", which an exact reference must not carry.
  const first = version.charCodeAt(0);
  if (first >= 48 && first <= 57 && parseSemver(version)?.raw === version) {
    return { ok: true, version, abbreviated: false };
  }
  if (RANGE_CHARS.test(version) && validRange(version) !== null) {
    return fail(
      "range",
      `'${version}' is a version range; a reference must name one exact version`,
    );
  }
  if (TAG.test(version)) {
    return fail("tag", `'${version}' is a tag, not a version; name an exact version such as 1.0.0`);
  }
  return fail("invalid-version", `'${version.slice(0, 64)}' is not a semantic version (x.y.z)`);
}

/**
 * Parses a versioned reference. Never throws.
 *
 * @example
 * ```ts
 * import { parseRef } from "agentflow/model";
 *
 * const result = parseRef("prm:research@2");
 * if (!result.ok) throw new Error(result.message);
 * result.ref; // → { id: "prm:research", version: "2.0.0" }
 * result.abbreviated; // → true
 * result.canonical; // → "prm:research@2.0.0"
 *
 * const bare = parseRef("browser_search");
 * if (!bare.ok) {
 *   bare.reason; // → "missing-version"
 * }
 * ```
 */
export function parseRef(text: unknown): RefParseResult {
  if (typeof text !== "string") return fail("not-a-string", "a reference must be a string");
  // Large workflows repeat the same few refs on thousands of nodes: parse each text once.
  let result = refCache.get(text);
  if (result === undefined) {
    result = Object.freeze(parseRefText(text));
    if (refCache.size >= REF_CACHE_LIMIT) refCache.clear();
    refCache.set(text, result);
  }
  return result;
}

/** Parsed refs by text; bounded, and cleared when full, so hostile input cannot grow it. */
const refCache = new Map<string, RefParseResult>();
const REF_CACHE_LIMIT = 4096;

function parseRefText(text: string): RefParseResult {
  const at = text.lastIndexOf("@");
  if (at < 0) {
    return fail("missing-version", `'${text.slice(0, 64)}' has no '@version' (expected id@x.y.z)`);
  }
  const id = text.slice(0, at);
  if (id === "") return fail("empty-id", "the id before '@' is empty");
  if (!isValidId(id)) {
    return fail(
      "invalid-id",
      `'${id.slice(0, 64)}' is not a valid id (letters, digits, '.', '_', ':', '-')`,
    );
  }
  const version = parseVersion(text.slice(at + 1));
  if (!version.ok) return version;
  return {
    ok: true,
    ref: { id, version: version.version },
    abbreviated: version.abbreviated,
    canonical: `${id}@${version.version}`,
  };
}

/**
 * Formats a reference as `id@version`.
 *
 * @example
 * ```ts
 * import { formatRef } from "agentflow/model";
 *
 * formatRef({ id: "tool:browser-search", version: "1.2.0" }); // → "tool:browser-search@1.2.0"
 * ```
 */
export function formatRef(ref: Ref): string {
  return `${ref.id}@${ref.version}`;
}

/**
 * True when `text` parses as a reference (abbreviated versions included).
 *
 * @example
 * ```ts
 * import { isValidRef } from "agentflow/model";
 *
 * isValidRef("agnt-verify@1.0"); // → true
 * isValidRef("tool:x@latest"); // → false
 * isValidRef(42); // → false
 * ```
 */
export function isValidRef(text: unknown): boolean {
  return parseRef(text).ok;
}
