import { describe, expect, it } from "vitest";
import type { PointerTrieNode } from "../../../src/model/text/pointer-trie.js";
import { inheritOffsets, isPointer, pointerTrie } from "../../../src/model/text/pointer-trie.js";

/** The tokens from the root to `node`, read back through the parents. */
function tokensOf(node: PointerTrieNode | undefined): string[] {
  const tokens: string[] = [];
  for (let n = node; n?.parent !== undefined; n = n.parent) {
    const parent: PointerTrieNode = n.parent;
    const entry = [...(parent.children ?? new Map<string, PointerTrieNode>())].find(
      ([, child]) => child === n,
    );
    tokens.unshift(entry?.[0] ?? "?");
  }
  return tokens;
}

describe("pointerTrie", () => {
  it("gives each pointer its node, in the order asked, unescaping tokens", () => {
    const pointers = ["/nodes/0", "/nodes/1", "", "x", "/a~1b/m~0n", "/", "/a//b", "/nodes/0"];
    const { root, nodes } = pointerTrie(pointers);
    expect(nodes).toHaveLength(pointers.length);
    expect(nodes.map(tokensOf)).toEqual([
      ["nodes", "0"],
      ["nodes", "1"],
      [],
      [],
      ["a/b", "m~n"],
      [""],
      ["a", "", "b"],
      ["nodes", "0"],
    ]);
    expect(nodes[2]).toBe(root);
    expect(nodes[3]).toBeUndefined();
    // The same pointer, and siblings' parent, are one node.
    expect(nodes[7]).toBe(nodes[0]);
    expect(nodes[0]?.parent).toBe(nodes[1]?.parent);
    expect(root.children?.get("nodes")?.children?.size).toBe(2);
  });

  it("shares a parent met earlier, not only the previous pointer's", () => {
    const { root, nodes } = pointerTrie(["/a/x", "/b/y", "/a/z", "/a"]);
    const a = root.children?.get("a");
    expect([...(a?.children?.keys() ?? [])]).toEqual(["x", "z"]);
    expect(nodes[3]).toBe(a);
    expect(root.children?.size).toBe(2);
  });

  it("takes a 10,000-token pointer and its child", () => {
    const deep = "/a".repeat(10_000);
    const { nodes } = pointerTrie([deep, `${deep}/b`]);
    expect(tokensOf(nodes[1])).toHaveLength(10_001);
    expect(nodes[1]?.parent).toBe(nodes[0]);
  });

  it("gives every node not met its nearest met ancestor's offset", () => {
    const { root, nodes } = pointerTrie(["/a/b/c", "/a/d", "/e"]);
    root.offset = 0;
    const a = root.children?.get("a");
    if (a !== undefined) a.offset = 5;
    inheritOffsets(root);
    expect(nodes.map((n) => n?.offset)).toEqual([5, 5, 0]);
    expect(a?.children?.get("b")?.offset).toBe(5);
  });

  it("knows a pointer from other strings", () => {
    expect(["", "/", "/a", "a", " /a"].map(isPointer)).toEqual([true, true, true, false, false]);
  });
});
