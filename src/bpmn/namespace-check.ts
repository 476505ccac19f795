/**
 * Declarations that were meant as agentflow's but are not read as such: an extension element
 * (`btv:agentTask`, `btv:gate`, `btv:agentWorkflowSnapshot`, or any other) or an attribute of a
 * flow node in a namespace that looks like the btv URI (no version, another version, another
 * host, a `urn:` form, `http` for `https`, a typo) but is not it. moddle reads such an element
 * as an unknown one, so the agent task or gate it declares would be ignored without a word, and
 * an agent could pass as no agent at all. When the document binds the `btv` prefix itself to the
 * other URI, moddle renames the prefix and keeps no URI on the element; the URI then comes from
 * the `xmlns` declarations.
 */
import type { ModdleObject } from "./moddle.js";
import { BTV_URI, elementKind, foreignAttrs } from "./moddle.js";
import { BTV_DESCRIPTOR } from "./resources/btv.js";

/** A btv element as agentflow reads it: its spelling and its attributes. */
export interface BtvElement {
  readonly spelling: string;
  readonly attributes: readonly string[];
}

interface DescriptorType {
  readonly name: string;
  readonly extends?: readonly string[];
  readonly properties: readonly { readonly name: string; readonly isAttr?: boolean }[];
}

/** btv's elements by their name as {@link elementKind} spells it (lower case), from its package. */
export const BTV_ELEMENTS: ReadonlyMap<string, BtvElement> = new Map(
  (BTV_DESCRIPTOR.types as readonly DescriptorType[]).flatMap((type) =>
    type.extends === undefined
      ? [
          [
            type.name.toLowerCase(),
            {
              spelling: type.name.charAt(0).toLowerCase() + type.name.slice(1),
              attributes: type.properties.flatMap((p) => (p.isAttr === true ? [p.name] : [])),
            },
          ] as const,
        ]
      : [],
  ),
);

/** btv's attributes of BPMN elements (`agentWorkflowRef`), each with the type that carries it. */
export const BTV_CARRIED: readonly { readonly name: string; readonly on: string }[] = (
  BTV_DESCRIPTOR.types as readonly DescriptorType[]
).flatMap((type) =>
  (type.extends ?? []).flatMap((on) =>
    type.properties.flatMap((p) => (p.isAttr === true ? [{ name: p.name, on }] : [])),
  ),
);

/**
 * The one of `names` that `written` is a slip of: the same but for case, or within a few edits
 * (two, more for long names); `undefined` when none is that close.
 */
export function closestSpelling(written: string, names: readonly string[]): string | undefined {
  const lower = written.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of names) {
    const limit = Math.max(2, Math.floor(name.length / 5));
    const d = distance(lower, name.toLowerCase(), limit);
    if (d <= limit && d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

/** The btv element `local` (a local name as written) is a slip of, unless it is that one. */
export function btvElementSuggestion(local: string): string | undefined {
  const names = [...BTV_ELEMENTS.values()].map((e) => e.spelling);
  const suggestion = closestSpelling(local, names);
  return suggestion === local ? undefined : suggestion;
}

/** `https://Agentflow.dev/schema/btv/1.0/` → `agentflow.dev/schema/btv/1.0`. */
function normalise(uri: string): string {
  return uri
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, "")
    .replace(/^www\./, "")
    .replace(/\/+$/, "");
}

const TARGET = normalise(BTV_URI);
/** The part every version of the btv URI shares. */
const FAMILY = TARGET.slice(0, TARGET.lastIndexOf("/"));

/** Edit distance, at most `limit + 1` (only short strings reach the table). */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] ?? limit + 1;
}

/** `btv` as a whole segment of a URI: a path part, a host label, a URN part. */
const BTV_SEGMENT = /(^|[/:.#?=&])btv($|[/:.#?=&])/;

/**
 * True for a URI that looks like the btv namespace but is not it: the same up to scheme, case,
 * `www.` and a trailing slash, `agentflow.dev/schema/btv` with no or another version, any URI
 * with `btv` as a segment (`urn:btv`, another host's `/schema/btv/1.0`), or within three edits of
 * it.
 *
 * @example
 * ```ts
 * import { isBtvLookalike } from "agentflow/bpmn";
 *
 * isBtvLookalike("https://agentflow.dev/schema/btv/1.1"); // → true
 * isBtvLookalike("urn:btv"); // → true
 * isBtvLookalike("https://example.com/schema/btv/1.0"); // → true
 * isBtvLookalike("https://agentflow.dev/schema/btv/1.0"); // → false
 * isBtvLookalike("http://camunda.org/schema/zeebe/1.0"); // → false
 * ```
 */
export function isBtvLookalike(uri: string): boolean {
  if (uri === BTV_URI) return false;
  const n = normalise(uri);
  return (
    n === TARGET ||
    n === FAMILY ||
    n.startsWith(`${FAMILY}/`) ||
    BTV_SEGMENT.test(n) ||
    distance(n, TARGET, 3) <= 3
  );
}

/** The look-alike URIs declared by `xmlns:*` attributes of an element. */
function declaredLookalikes(element: ModdleObject | undefined): string[] {
  if (element === undefined) return [];
  const attrs = foreignAttrs(element);
  const out: string[] = [];
  for (const key in attrs) {
    const value = attrs[key];
    if (key.startsWith("xmlns") && typeof value === "string" && isBtvLookalike(value)) {
      out.push(value);
    }
  }
  return out;
}

/** One extension value or attribute that was meant as a btv one. */
export interface NamespaceMismatch {
  /** Flow node index of the host. */
  readonly node: number;
  /** Index of the value in the host's extension values; absent for an attribute. */
  readonly value?: number;
  /** The element's name (`agentTask`), or the attribute's as written (`bt:autonomyLevel`). */
  readonly element: string;
  /** The namespace it is in. */
  readonly namespace: string;
}

/** The element's parent in the moddle tree, if it has one. */
function parentOf(element: ModdleObject): ModdleObject | undefined {
  const parent = (element as { readonly $parent?: unknown }).$parent;
  return typeof parent === "object" && parent !== null ? (parent as ModdleObject) : undefined;
}

/** What the `xmlns` declarations in scope at an element say (see {@link scopeReader}). */
export interface ScopeReader {
  /** The URI `prefix` is bound to at the element, if a declaration in scope binds it. */
  prefixUri(prefix: string, element: ModdleObject): string | undefined;
  /** The nearest look-alike of the btv URI declared at the element or above it. */
  lookalike(element: ModdleObject): string | undefined;
}

/**
 * Resolves what the `xmlns` declarations of an element and its ancestors say, as XML scopes
 * them: a declaration on the process, the task or the `extensionElements` counts as much as one
 * on the definitions. Memoized per element, so a document's checks stay linear in its size.
 */
export function scopeReader(): ScopeReader {
  const prefixes = new Map<string, Map<ModdleObject, string | null>>();
  const lookalikes = new Map<ModdleObject, string | null>();
  /** Walks up to the first answer (or the root), then records it for every element passed. */
  const resolve = (
    start: ModdleObject,
    memo: Map<ModdleObject, string | null>,
    own: (element: ModdleObject) => string | undefined,
  ): string | undefined => {
    const passed: ModdleObject[] = [];
    let answer: string | null = null;
    for (let at: ModdleObject | undefined = start; at !== undefined; at = parentOf(at)) {
      const known = memo.get(at);
      if (known !== undefined) {
        answer = known;
        break;
      }
      passed.push(at);
      const here = own(at);
      if (here !== undefined) {
        answer = here;
        break;
      }
    }
    for (const element of passed) memo.set(element, answer);
    return answer ?? undefined;
  };
  return {
    prefixUri(prefix, element) {
      let memo = prefixes.get(prefix);
      if (memo === undefined) {
        memo = new Map();
        prefixes.set(prefix, memo);
      }
      return resolve(element, memo, (at) => {
        const value = foreignAttrs(at)[`xmlns:${prefix}`];
        return typeof value === "string" ? value : undefined;
      });
    },
    lookalike(element) {
      return resolve(element, lookalikes, (at) => declaredLookalikes(at)[0]);
    },
  };
}

/** The host's own attributes in a look-alike namespace (`bt:agentWorkflowRef`, with `bt` one). */
function attributeMismatches(
  node: number,
  element: ModdleObject,
  scopes: ScopeReader,
): NamespaceMismatch[] {
  const attrs = foreignAttrs(element);
  const out: NamespaceMismatch[] = [];
  for (const key in attrs) {
    const colon = key.indexOf(":");
    if (colon <= 0 || key.startsWith("xmlns")) continue;
    const prefix = key.slice(0, colon);
    // moddle renames a known prefix (btv) bound to another URI to `ns<n>`, declared nowhere:
    // the URI is then the nearest look-alike declaration up the tree.
    const namespace =
      scopes.prefixUri(prefix, element) ??
      (/^ns\d+$/.test(prefix) ? scopes.lookalike(element) : undefined);
    if (namespace !== undefined && isBtvLookalike(namespace)) {
      out.push({ node, element: key, namespace });
    }
  }
  return out;
}

/**
 * A checker for the attributes and extension values of one document's flow nodes:
 * `definitions` supplies the `xmlns` declarations a renamed prefix points back to, `scopes` the
 * reader of those declarations (one per document, shared with the other checks that read them).
 * Any element in a look-alike namespace counts, whatever its name: it was meant as agentflow's.
 */
export function namespaceChecker(
  definitions: ModdleObject,
  scopes: ScopeReader = scopeReader(),
): (node: number, element: ModdleObject, values: readonly ModdleObject[]) => NamespaceMismatch[] {
  let declared: string[] | undefined;
  return (node, element, values) => {
    const out = attributeMismatches(node, element, scopes);
    values.forEach((value, i) => {
      const kind = elementKind(value);
      if (kind.namespace === BTV_URI) return;
      let namespace = kind.namespace;
      if (namespace === undefined) {
        if (!BTV_ELEMENTS.has(kind.local)) return;
        // The renamed prefix was bound somewhere up the tree: the nearest look-alike declaration.
        declared ??= declaredLookalikes(definitions);
        namespace = scopes.lookalike(value) ?? declared[0];
      }
      if (namespace === undefined || !isBtvLookalike(namespace)) return;
      out.push({
        node,
        value: i,
        element: BTV_ELEMENTS.get(kind.local)?.spelling ?? kind.local,
        namespace,
      });
    });
    return out;
  };
}
