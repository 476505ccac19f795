/**
 * Reading and writing BPMN: every MIWG and bpmn.io fixture parses, round-trips without losing an
 * element or an extension, and gives the BPMN_PARSE diagnostics its ORIGINS.md entry predicts.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ModdleObject } from "../../src/bpmn/index.js";
import { checkProcess, readProcess, writeProcess } from "../../src/bpmn/index.js";

const root = new URL("../fixtures/bpmn/", import.meta.url).pathname;
const FOLDERS = ["miwg-reference", "bpmn-js", "bpmnlint", "zeebe-bpmn-moddle"];
const fixtures = FOLDERS.flatMap((folder) =>
  readdirSync(join(root, folder))
    .filter((name) => name.endsWith(".bpmn") && !name.endsWith(".part.bpmn"))
    .map((name) => `${folder}/${name}`),
);
const read = (name: string): string => readFileSync(join(root, name), "utf8");
const parsed = (result: { readonly definitions: ModdleObject | undefined }): ModdleObject => {
  if (result.definitions === undefined) throw new Error("expected the document to parse");
  return result.definitions;
};

/** True when moddle's descriptor gives `key` a default equal to `value` (moddle omits those on write). */
function isDefault(record: ModdleObject, key: string, value: unknown): boolean {
  const descriptor = record.$descriptor as
    { propertiesByName?: Record<string, { default?: unknown } | undefined> } | undefined;
  const property = descriptor?.propertiesByName?.[key];
  return (
    property !== undefined && "default" in property && String(property.default) === String(value)
  );
}

/**
 * A comparable picture of a moddle tree: every element's type, id, attributes (its own
 * primitive properties, except explicit defaults, and `$attrs`), references by id, and
 * contained elements in order.
 */
function fingerprint(element: ModdleObject): unknown {
  const seen = new Set<unknown>();
  const visit = (value: unknown, parent: unknown): unknown => {
    if (Array.isArray(value)) return value.map((v) => visit(v, parent));
    if (typeof value !== "object" || value === null) return value;
    const record = value as ModdleObject;
    if (typeof record.$type !== "string") return JSON.stringify(value);
    if (record.$parent !== parent || seen.has(record)) return `ref:${String(record.id)}`;
    seen.add(record);
    const out: Record<string, unknown> = { $type: record.$type };
    for (const key of Object.keys(record).sort()) {
      if (key === "$parent" || key === "$type" || key === "di") continue;
      if (isDefault(record, key, record[key])) continue;
      out[key] = visit(record[key], record);
    }
    return out;
  };
  return visit(element, element.$parent);
}

describe("readProcess / writeProcess on the fixtures", () => {
  it("finds all 19 fixtures", () => {
    expect(fixtures).toHaveLength(19);
  });

  it.each(fixtures)(
    "%s parses, round-trips without loss, and the gate check runs",
    async (name) => {
      const definitions = parsed(await readProcess(read(name)));
      expect(definitions.$type).toBe("bpmn:Definitions");
      const written = await writeProcess(definitions);
      const second = await readProcess(written);
      expect(second.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      const again = parsed(second);
      expect(fingerprint(again)).toEqual(fingerprint(definitions));
      expect(await writeProcess(again)).toBe(written);
      const checked = await checkProcess(read(name));
      expect(checked.blocking.concat(checked.warnings).map((d) => d.code)).not.toContain(
        "RULE_CRASHED",
      );
    },
  );

  const encodingWarned = ["A.1.0", "A.2.0", "A.3.0", "A.4.0", "B.1.0", "B.2.0"];
  it.each(encodingWarned)(
    "miwg %s (ISO-8859-1) gives one BPMN_PARSE encoding warning",
    async (n) => {
      const { diagnostics } = await readProcess(read(`miwg-reference/${n}.bpmn`));
      expect(diagnostics).toEqual([
        expect.objectContaining({
          code: "BPMN_PARSE",
          severity: "warning",
          data: { kind: "encoding", subject: "ISO-8859-1", reason: "" },
          location: { line: 1, column: 1 },
        }),
      ]);
    },
  );

  it("events.bpmn: the undeclared 'bpmn:' prefix moddle accepts silently is a warning at line 131", async () => {
    const { diagnostics } = await readProcess(read("bpmn-js/events.bpmn"));
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: "BPMN_PARSE",
        severity: "warning",
        data: { kind: "undeclared-prefix", subject: "bpmn:signalEventDefinition", reason: "bpmn" },
        location: { line: 131, column: 7 },
      }),
    ]);
  });

  it("complex.bpmn: the unknown isCollection attribute is a warning on its element", async () => {
    const { diagnostics } = await readProcess(read("bpmn-js/complex.bpmn"));
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: "BPMN_PARSE",
        severity: "warning",
        target: {
          kind: "bpmn-element",
          elementId: "sid-8D8BD39F-1B08-433F-8F93-A1FF7520BA8B",
          path: "",
        },
        data: { kind: "unknown-attribute", subject: "isCollection", reason: "" },
        location: { line: 641, column: 28 },
      }),
    ]);
  });

  it("the other fixtures read without a diagnostic", async () => {
    const quiet = fixtures.filter(
      (f) =>
        !encodingWarned.some((n) => f.endsWith(`${n}.bpmn`)) &&
        !f.endsWith("events.bpmn") &&
        !f.endsWith("complex.bpmn"),
    );
    expect(quiet).toHaveLength(10);
    for (const name of quiet) expect((await readProcess(read(name))).diagnostics).toEqual([]);
  });

  it("a fragment whose root is not bpmn:definitions is an error naming the root", async () => {
    const { definitions, diagnostics } = await readProcess(
      read("zeebe-bpmn-moddle/adhoc-sub-process-zeebe-adHoc.part.bpmn"),
    );
    expect(definitions).toBeUndefined();
    expect(diagnostics).toMatchObject([
      {
        code: "BPMN_PARSE",
        severity: "error",
        data: { kind: "unknown-root", subject: "bpmn:adHocSubProcess" },
      },
    ]);
  });

  it("keeps unknown extension elements and attributes through a round trip", async () => {
    const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:x="urn:x" id="d">
  <bpmn:process id="p"><bpmn:task id="t" x:colour="red"><bpmn:extensionElements><x:note level="3">keep me</x:note></bpmn:extensionElements></bpmn:task></bpmn:process>
</bpmn:definitions>`;
    const out = await writeProcess(parsed(await readProcess(xml)));
    expect(out).toContain('x:colour="red"');
    expect(out).toContain('<x:note level="3">keep me</x:note>');
  });

  it("reads each document on its own: what one declares or holds is not in the next", async () => {
    // One moddle instance reads every document: the prefix, the vendor element and the element
    // ids of the first must not shape how the second is read.
    const first = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:btv="urn:not-btv" id="d1">
  <bpmn:process id="p"><bpmn:task id="t"><bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-a@1.0.0" /></bpmn:extensionElements></bpmn:task></bpmn:process>
</bpmn:definitions>`;
    const second = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="d2">
  <bpmn:process id="p"><bpmn:task id="t"><bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-b@1.0.0" /></bpmn:extensionElements></bpmn:task></bpmn:process>
</bpmn:definitions>`;
    const agentTask = (definitions: ModdleObject): ModdleObject => {
      const process = (definitions.rootElements as ModdleObject[])[0];
      const task = (process?.flowElements as ModdleObject[] | undefined)?.[0];
      const values = (task?.extensionElements as ModdleObject | undefined)?.values;
      const element = (values as ModdleObject[] | undefined)?.[0];
      if (element === undefined) throw new Error("no extension element");
      return element;
    };
    const a = agentTask(parsed(await readProcess(first)));
    const b = agentTask(parsed(await readProcess(second)));
    const again = agentTask(parsed(await readProcess(first)));
    // moddle renames a prefix that clashes with a package's to ns0, counting per document.
    expect([a.$type, b.$type, again.$type]).toEqual([
      "ns0:agentTask",
      "btv:AgentTask",
      "ns0:agentTask",
    ]);
    expect([a.$descriptor, again.$descriptor]).toMatchObject([
      { isGeneric: true },
      { isGeneric: true },
    ]);
    expect(b.agentWorkflowRef).toBe("agnt-b@1.0.0");
    expect(again.agentWorkflowRef).toBe("agnt-a@1.0.0");
  });
});

describe("attributes given twice under one namespace", () => {
  const task = (attributes: string) => `<bpmn:definitions
    xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="D" targetNamespace="x">
  <bpmn:process id="P"><bpmn:scriptTask id="Run" ${attributes} /></bpmn:process>
</bpmn:definitions>`;

  it("is a BPMN_PARSE error at the second one, whichever value moddle kept", async () => {
    const result = await readProcess(
      task(
        'btv:toolEffect="write-irreversible" xmlns:b2="https://agentflow.dev/schema/btv/1.0" b2:toolEffect="read"',
      ),
    );
    expect(
      result.diagnostics.map((d) => [d.code, d.severity, d.message, d.target, d.location, d.data]),
    ).toEqual([
      [
        "BPMN_PARSE",
        "error",
        "the XML cannot be read: <bpmn:scriptTask> gives attribute <b2:toolEffect> twice: as <btv:toolEffect> and as <b2:toolEffect>, both in https://agentflow.dev/schema/btv/1.0",
        { kind: "bpmn-element", elementId: "Run", path: "" },
        { line: 4, column: 134 },
        {
          kind: "unreadable",
          subject: "bpmn:scriptTask",
          reason:
            "<bpmn:scriptTask> gives attribute <b2:toolEffect> twice: as <btv:toolEffect> and as <b2:toolEffect>, both in https://agentflow.dev/schema/btv/1.0",
        },
      ],
    ]);
    const decision = await checkProcess(
      task(
        'btv:toolEffect="read" xmlns:b2="https://agentflow.dev/schema/btv/1.0" b2:toolEffect="read"',
      ),
    );
    expect([decision.allowed, decision.blocking.map((d) => d.code)]).toEqual([
      false,
      ["BPMN_PARSE"],
    ]);
  });

  // Red team: a namespace-aware engine reads the unprefixed attribute, moddle the last one.
  it.each([
    [
      '<bpmn:boundaryEvent id="T" attachedToRef="Run" cancelActivity="true" bpmn:cancelActivity="false" />',
      "T",
      "<bpmn:boundaryEvent> gives attribute <bpmn:cancelActivity> twice: as <cancelActivity> and as <bpmn:cancelActivity>, which bpmn-moddle reads as one property of http://www.omg.org/spec/BPMN/20100524/MODEL, keeping the last",
    ],
    [
      '<bpmn:sequenceFlow id="F" bpmn:targetRef="Run" sourceRef="Run" targetRef="Run" />',
      "F",
      "<bpmn:sequenceFlow> gives attribute <targetRef> twice: as <bpmn:targetRef> and as <targetRef>, both in http://www.omg.org/spec/BPMN/20100524/MODEL",
    ],
    [
      '<bpmn:task id="A"><bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-a@1.0.0" btv:agentWorkflowRef="agnt-b@1.0.0" /></bpmn:extensionElements></bpmn:task>',
      "",
      "<btv:agentTask> gives attribute <btv:agentWorkflowRef> twice: as <agentWorkflowRef> and as <btv:agentWorkflowRef>, which bpmn-moddle reads as one property of https://agentflow.dev/schema/btv/1.0, keeping the last",
    ],
  ])("is a BPMN_PARSE error unprefixed and prefixed too: %s", async (element, id, reason) => {
    const xml = task("").replace("</bpmn:process>", `${element}</bpmn:process>`);
    const result = await readProcess(xml);
    expect(result.diagnostics.map((d) => [d.code, d.severity, d.target, d.data])).toEqual([
      [
        "BPMN_PARSE",
        "error",
        { kind: "bpmn-element", elementId: id, path: "" },
        { kind: "unreadable", subject: reason.slice(1, reason.indexOf(">")), reason },
      ],
    ]);
  });

  it("reads the element's namespace from a default declaration too", async () => {
    const xml = `<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"
      xmlns:b="http://www.omg.org/spec/BPMN/20100524/MODEL" id="D" targetNamespace="x">
      <process id="P"><task id="Run" /><boundaryEvent id="T" attachedToRef="Run" cancelActivity="true" b:cancelActivity="false" /></process>
    </definitions>`;
    expect((await readProcess(xml)).diagnostics.map((d) => [d.code, d.target])).toEqual([
      ["BPMN_PARSE", { kind: "bpmn-element", elementId: "T", path: "" }],
    ]);
  });

  it("is no problem for two namespaces, or one prefix rebound in a nested scope", async () => {
    const other = task(
      'btv:toolEffect="read" xmlns:b2="https://example.com/other" b2:toolEffect="x"',
    );
    expect((await readProcess(other)).diagnostics).toEqual([]);
    const nested = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
      xmlns:btv="https://agentflow.dev/schema/btv/1.0" xmlns:b2="https://example.com/other" id="D" targetNamespace="x">
      <!-- <bpmn:task btv:toolEffect="read" xmlns:b3="https://agentflow.dev/schema/btv/1.0" b3:toolEffect="read"> -->
      <bpmn:process id="P" xmlns:b2="https://agentflow.dev/schema/btv/1.0"><bpmn:task id="A" b2:toolEffect="read" /></bpmn:process>
      <bpmn:process id="Q"><bpmn:task id="B" btv:toolEffect="read" b2:toolEffect="x" /></bpmn:process>
    </bpmn:definitions>`;
    expect((await readProcess(nested)).diagnostics.map((d) => d.code)).toEqual([]);
    // An attribute of another namespace beside the element's own is no repeat.
    const extension = task('btv:toolEffect="read"').replace(
      "</bpmn:process>",
      '<bpmn:task id="B"><bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-a@1.0.0" /></bpmn:extensionElements></bpmn:task></bpmn:process>',
    );
    expect((await readProcess(extension)).diagnostics.map((d) => d.code)).toEqual([]);
    // Of an element moddle has no package for, it keeps both (`a` and `foo:a`): no repeat.
    const vendor = task("").replace(
      "</bpmn:process>",
      '<bpmn:task id="V"><bpmn:extensionElements><foo:meta xmlns:foo="urn:foo" a="1" foo:a="2" /></bpmn:extensionElements></bpmn:task></bpmn:process>',
    );
    expect((await readProcess(vendor)).diagnostics.map((d) => d.code)).toEqual([]);
  });
});

describe("a document in a wide encoding, read as UTF-8", () => {
  const XML =
    '<?xml version="1.0" encoding="UTF-16"?>\n<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="D" targetNamespace="x" />';
  const utf32 = (text: string, little: boolean): Buffer => {
    const points = Array.from(text, (c) => c.codePointAt(0) ?? 0);
    const bytes = Buffer.alloc(points.length * 4);
    points.forEach((p, i) =>
      little ? bytes.writeUInt32LE(p, i * 4) : bytes.writeUInt32BE(p, i * 4),
    );
    return bytes;
  };
  const cases: [string, Buffer][] = [
    ["UTF-16LE", Buffer.from(`\uFEFF${XML}`, "utf16le")],
    ["UTF-16LE", Buffer.from(XML, "utf16le")],
    ["UTF-16BE", Buffer.from(`\uFEFF${XML}`, "utf16le").swap16()],
    ["UTF-16BE", Buffer.from(XML, "utf16le").swap16()],
    ["UTF-32LE", utf32(`\uFEFF${XML}`, true)],
    ["UTF-32BE", utf32(`\uFEFF${XML}`, false)],
    ["UTF-32BE", utf32(XML, false)],
  ];

  it.each(cases)(
    "says it is %s, not UTF-8, instead of 'illegal first char'",
    async (name, bytes) => {
      const result = await readProcess(bytes.toString("utf8"));
      expect(result.definitions).toBeUndefined();
      expect(
        result.diagnostics.map((d) => [d.code, d.severity, d.message, d.data, d.location]),
      ).toEqual([
        [
          "BPMN_PARSE",
          "error",
          `the XML cannot be read: the document is encoded as ${name}; agentflow reads BPMN as UTF-8 only: save it as UTF-8`,
          {
            kind: "unreadable",
            subject: "",
            reason: `the document is encoded as ${name}; agentflow reads BPMN as UTF-8 only: save it as UTF-8`,
          },
          { line: 1, column: 1 },
        ],
      ]);
    },
  );

  it("reads UTF-8 with or without its byte-order mark", async () => {
    const plain = XML.replace("UTF-16", "UTF-8");
    for (const text of [plain, `\uFEFF${plain}`]) {
      expect((await readProcess(text)).definitions?.$type).toBe("bpmn:Definitions");
    }
  });
});
