/**
 * Attributes a start tag gives twice for bpmn-moddle, which keeps the last value without a word:
 *
 * - under one expanded name through two prefixes bound to one namespace
 *   (`btv:toolEffect="write-irreversible" b2:toolEffect="read"`): Namespaces in XML 1.0 forbids
 *   it and a namespace-aware reader rejects the document, but saxen checks only written names;
 * - unprefixed and under a prefix of the element's own namespace
 *   (`cancelActivity="true" bpmn:cancelActivity="false"`), for a namespace moddle has a package
 *   for: two attributes to XML, and an engine reads the unprefixed one, but one property to
 *   bpmn-moddle, so the verdict would follow whichever is written last. Of an element moddle
 *   knows no package for, it keeps both.
 *
 * So the text is scanned here: once for the prefixes in use and, only when a namespace is bound
 * to two prefixes or an attribute carries a prefix some element carries (else no such duplicate
 * can exist), once more tag by tag with the declarations in scope. Linear in the text.
 */

/** One attribute that repeats an earlier one of its start tag. */
export interface DuplicateAttribute {
  /** The element as written (`bpmn:scriptTask`). */
  readonly element: string;
  /** The element's `id`, when it has one. */
  readonly elementId?: string;
  /** The repeating attribute as written, and the earlier one it repeats. */
  readonly name: string;
  readonly first: string;
  readonly namespace: string;
  /** Offset of the repeating attribute in the text. */
  readonly offset: number;
}

// Each alternative consumes up to a fixed delimiter: linear, no nested quantifiers.
const DECLARATION = /\sxmlns(?::([^\s=/>]+))?\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const ELEMENT_PREFIX = /<([^\s=/>!?:]+):/g;
const ATTRIBUTE_PREFIX = /\s([^\s=/>:]+):[^\s=/>]+\s*=/g;
const TAG_NAME = /[^\s/>]+/y;
const ATTRIBUTE = /\s+([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;
const TAG_END = /\s*(\/?)>/y;
const ENTITIES: Readonly<Record<string, string>> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&apos;": "'",
};

const decode = (value: string): string =>
  value.replace(/&(?:amp|lt|gt|quot|apos);/g, (entity) => ENTITIES[entity] ?? entity);

/**
 * True when some namespace is declared under two prefixes (the default one included) anywhere in
 * the text, or some attribute's prefix is also an element's.
 */
function mayRepeat(text: string): boolean {
  const prefixOf = new Map<string, string>();
  for (const match of text.matchAll(DECLARATION)) {
    const uri = decode(match[2] ?? match[3] ?? "");
    const prefix = match[1] ?? "";
    const known = prefixOf.get(uri);
    if (known === undefined) prefixOf.set(uri, prefix);
    else if (known !== prefix) return true;
  }
  const elements = new Set<string>();
  for (const match of text.matchAll(ELEMENT_PREFIX)) elements.add(match[1] ?? "");
  for (const match of text.matchAll(ATTRIBUTE_PREFIX)) {
    const prefix = match[1] ?? "";
    if (prefix !== "xmlns" && elements.has(prefix)) return true;
  }
  return false;
}

/** Where the markup that is not a tag ends (comment, CDATA, instruction, DOCTYPE), or -1. */
function skipMarkup(text: string, at: number): number {
  if (text.startsWith("<!--", at)) return end(text, "-->", at + 4);
  if (text.startsWith("<![CDATA[", at)) return end(text, "]]>", at + 9);
  if (text.startsWith("<?", at)) return end(text, "?>", at + 2);
  if (!text.startsWith("<!", at)) return -1;
  // A DOCTYPE's internal subset holds `>`s of its own; it ends at `]>`.
  const close = text.indexOf(">", at);
  const open = text.indexOf("[", at);
  return open !== -1 && open < close
    ? end(text, "]>", open)
    : close === -1
      ? text.length
      : close + 1;
}

function end(text: string, marker: string, from: number): number {
  const at = text.indexOf(marker, from);
  return at === -1 ? text.length : at + marker.length;
}

/**
 * The attributes of each start tag that repeat an earlier one under the same expanded name
 * through another prefix, or unprefixed beside the element's own prefix, in document order; `[]`
 * for most documents after one regex pass. A name written twice as is, saxen reports itself.
 * `known` are the namespaces moddle has a package for (all, when not given).
 */
export function duplicateAttributes(
  text: string,
  known?: ReadonlySet<string>,
): DuplicateAttribute[] {
  if (!mayRepeat(text)) return [];
  const out: DuplicateAttribute[] = [];
  const bindings = new Map<string, string>([["xml", "http://www.w3.org/XML/1998/namespace"]]);
  // Per open element, the bindings its declarations replaced, to restore when it closes.
  const scopes: (readonly (readonly [string, string | undefined])[])[] = [];
  const restore = (changes: readonly (readonly [string, string | undefined])[]): void => {
    for (const [prefix, previous] of changes) {
      if (previous === undefined) bindings.delete(prefix);
      else bindings.set(prefix, previous);
    }
  };
  for (let at = text.indexOf("<"); at !== -1; at = text.indexOf("<", at)) {
    const skipped = skipMarkup(text, at);
    if (skipped !== -1) {
      at = skipped;
      continue;
    }
    if (text.startsWith("</", at)) {
      restore(scopes.pop() ?? []);
      at += 2;
      continue;
    }
    TAG_NAME.lastIndex = at + 1;
    const element = TAG_NAME.exec(text)?.[0];
    if (element === undefined) {
      at += 1;
      continue;
    }
    const attributes: { name: string; value: string; offset: number }[] = [];
    let cursor = TAG_NAME.lastIndex;
    for (;;) {
      ATTRIBUTE.lastIndex = cursor;
      const match = ATTRIBUTE.exec(text);
      if (match === null) break;
      const name = match[1] ?? "";
      attributes.push({ name, value: match[2] ?? match[3] ?? "", offset: match.index + 1 });
      cursor = ATTRIBUTE.lastIndex;
    }
    TAG_END.lastIndex = cursor;
    const close = TAG_END.exec(text);
    // Not a tag this scan can read: saxen reports it; nothing after it is in a known scope.
    if (close === null) break;
    at = TAG_END.lastIndex;
    const changes: (readonly [string, string | undefined])[] = [];
    for (const { name, value } of attributes) {
      if (name !== "xmlns" && !name.startsWith("xmlns:")) continue;
      const prefix = name.slice(6);
      changes.push([prefix, bindings.get(prefix)]);
      bindings.set(prefix, decode(value));
    }
    const elementColon = element.indexOf(":");
    const own = bindings.get(elementColon > 0 ? element.slice(0, elementColon) : "");
    const seen = new Map<string, string>();
    for (const { name, offset } of attributes) {
      if (name === "xmlns" || name.startsWith("xmlns:")) continue;
      const colon = name.indexOf(":");
      // An unprefixed attribute is the element's own property to bpmn-moddle, where it has a
      // package for the element's namespace.
      const namespace =
        colon > 0
          ? bindings.get(name.slice(0, colon))
          : own !== undefined && (known === undefined || known.has(own))
            ? own
            : undefined;
      if (namespace === undefined) continue;
      const expanded = `${namespace} ${name.slice(colon + 1)}`;
      const first = seen.get(expanded);
      if (first === undefined) seen.set(expanded, name);
      else if (first !== name) {
        const id = attributes.find((a) => a.name === "id")?.value;
        out.push({
          element,
          ...(id === undefined ? {} : { elementId: id }),
          name,
          first,
          namespace,
          offset,
        });
      }
    }
    if (close[1] === "/") restore(changes);
    else scopes.push(changes);
  }
  return out;
}
