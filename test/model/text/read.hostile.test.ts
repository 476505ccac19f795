import { describe, expect, it } from "vitest";
import { readDocumentText } from "../../../src/model/text/index.js";
import type { ReadResult, TextFormat } from "../../../src/model/text/index.js";

function valueOf(result: ReadResult): unknown {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.problems)}`);
  return result.value;
}

describe("readDocumentText: hostile input", () => {
  const PROTO: [name: string, text: string, format?: TextFormat][] = [
    ["JSON __proto__", '{"__proto__": {"polluted": true}}'],
    ["YAML __proto__", "__proto__:\n  polluted: true\n"],
    ["YAML flow __proto__", "{__proto__: {polluted: true}}", "yaml"],
    ["YAML __proto__ through an alias", "base: &b {polluted: true}\n__proto__: *b\n"],
  ];
  it.each(PROTO)("%s stays an own property and pollutes nothing", (_name, text, format) => {
    const value = valueOf(readDocumentText(text, format ? { format } : {})) as object;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({ polluted: true });
  });

  it("keeps constructor and prototype as plain data", () => {
    const value = valueOf(readDocumentText("constructor:\n  prototype:\n    polluted: true\n"));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(value as object, "constructor")).toBe(true);
  });

  it("reads a 10,000-deep JSON array and object", () => {
    let value = valueOf(readDocumentText("[".repeat(10_000) + "]".repeat(10_000)));
    let depth = 0;
    for (; Array.isArray(value) && value.length > 0; depth += 1) value = (value as unknown[])[0];
    expect(depth).toBe(9_999);
    const deep = '{"a":'.repeat(10_000) + '{"k":1,"k":2}' + "}".repeat(10_000);
    expect(readDocumentText(deep).problems[0]?.path).toBe("/a".repeat(10_000) + "/k");
  });

  it("reads a 1,000,000-character string value", () => {
    const long = "x".repeat(1_000_000);
    expect(valueOf(readDocumentText(`{"a":"${long}"}`))).toEqual({ a: long });
    expect(valueOf(readDocumentText(`{"a":"${long}\\n"}`))).toEqual({ a: long + "\n" });
    expect(valueOf(readDocumentText(`a: "${long}"\n`))).toEqual({ a: long });
  });

  it("checks 200,000 keys in linear time", () => {
    const members = Array.from({ length: 200_000 }, (_, i) => `"k${i}":${i}`);
    expect(readDocumentText(`{${members.join(",")}}`).ok).toBe(true);
    expect(readDocumentText(`{${members.join(",")},"k7":0}`).problems[0]?.path).toBe("/k7");
  });
});
