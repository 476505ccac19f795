/**
 * The pointers a locator is asked for, as one tree of their tokens: a walk of the document then
 * meets each requested prefix once, however many pointers share it. 100,000 diagnostics at
 * `/nodes/<i>` share the `/nodes` node and add one leaf each.
 */

/** One token of one or more requested pointers; the root is the whole document. */
export interface PointerTrieNode {
  readonly parent: PointerTrieNode | undefined;
  /** Children by unescaped token; absent on a leaf, so that a leaf costs one small object. */
  children: Map<string, PointerTrieNode> | undefined;
  /** Where the value at this prefix starts; -1 until a walk of the document meets it. */
  offset: number;
}

/** The tree of a list of pointers, and each pointer's node in it. */
export interface PointerTrie {
  readonly root: PointerTrieNode;
  /** The node of each pointer, in the order given; `undefined` for a string that is not one. */
  readonly nodes: readonly (PointerTrieNode | undefined)[];
}

/** True for `""` and for a string starting with `/`: the strings a locator answers for. */
export function isPointer(path: string): boolean {
  return path === "" || path.startsWith("/");
}

function unescape(token: string): string {
  return token.includes("~") ? token.replaceAll("~1", "/").replaceAll("~0", "~") : token;
}

function childOf(node: PointerTrieNode, token: string): PointerTrieNode {
  node.children ??= new Map();
  let child = node.children.get(token);
  if (child === undefined) {
    child = { parent: node, children: undefined, offset: -1 };
    node.children.set(token, child);
  }
  return child;
}

/**
 * Builds the trie of `pointers`. A pointer whose parent was met before (most often: the same as
 * the previous pointer's) costs one token and one lookup; any other is split once. Only parents
 * are remembered by name, so a 10,000-token pointer costs no 10,000 prefix strings.
 */
export function pointerTrie(pointers: readonly string[]): PointerTrie {
  const root: PointerTrieNode = { parent: undefined, children: undefined, offset: -1 };
  const parents = new Map<string, PointerTrieNode>([["", root]]);
  const insert = (path: string): PointerTrieNode => {
    let node = root;
    let from = 1;
    while (from <= path.length) {
      const slash = path.indexOf("/", from);
      const end = slash < 0 ? path.length : slash;
      node = childOf(node, unescape(path.slice(from, end)));
      from = end + 1;
    }
    parents.set(path, node);
    return node;
  };
  let lastParent = "";
  let last = root;
  const nodes = pointers.map((path) => {
    if (path === "") return root;
    if (!path.startsWith("/")) return undefined;
    const slash = path.lastIndexOf("/");
    // Siblings come one after another: compare with the last parent before slicing a new one.
    if (slash !== lastParent.length || !path.startsWith(lastParent)) {
      lastParent = path.slice(0, slash);
      last = parents.get(lastParent) ?? insert(lastParent);
    }
    return childOf(last, unescape(path.slice(slash + 1)));
  });
  return { root, nodes };
}

/**
 * Gives every node the walk did not meet the offset of its nearest ancestor that it did: a
 * pointer that names nothing is placed at what contains it. Iterative, top-down, one visit per
 * node.
 */
export function inheritOffsets(root: PointerTrieNode): void {
  const pending: PointerTrieNode[] = [root];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (node.offset < 0 && node.parent !== undefined) node.offset = node.parent.offset;
    if (node.children !== undefined)
      for (const child of node.children.values()) pending.push(child);
  }
}

/** The offset of each pointer, in the order asked, after {@link inheritOffsets}; -1 where none. */
export function trieOffsets(trie: PointerTrie): number[] {
  inheritOffsets(trie.root);
  return trie.nodes.map((node) => node?.offset ?? -1);
}
