/**
 * A sub-process marked as a gate counts only when every path from its start to its end passes
 * something that waits for someone outside the engine (docs/gate-paths.md): holding a user task
 * is not enough when a flow goes round it, none reaches it, a timer cancels it, a terminate ends
 * the sub-process while it is pending, or an ad-hoc sub-process never has to activate it. An
 * agent, and the tool container an AI Agent task calls, wait for nobody. Each case is
 * `S → A → G → E` with the agent task `A` (level 2, so a gate is required) and the gate `G`
 * holding the case's content, drawn with DI.
 */
import { describe, expect, it } from "vitest";
import type { GateDecision } from "../../src/bpmn/index.js";
import { checkProcess } from "../../src/bpmn/index.js";
import {
  agent,
  agentWorkflow,
  boundaryEvent,
  chain,
  definitions,
  element,
  endEvent,
  exclusiveGateway,
  flow,
  gateMarker,
  parallelGateway,
  processElement,
  startEvent,
  subProcess,
  task,
  userTask,
} from "./builders.js";
import { templatedTask } from "./camunda/fixtures.js";
import { withDiagram } from "./diagram.js";

const WORKFLOW = agentWorkflow("agnt-x@1.0.0", 2);
const A = agent("A", { ref: "agnt-x@1.0.0", level: "2" });

const WAITERS =
  "past nothing that waits for anyone (a user task, a receive task, a message or signal catch, a job worker or a call activity), so it may complete with nobody deciding";
const SUB = `a sub-process with a path from its start to its end ${WAITERS}`;
const AD_HOC = `an ad-hoc sub-process in which an element it may activate leads to its end ${WAITERS}`;

const script = (id: string) =>
  element("scriptTask", id, { ext: ['<zeebe:script expression="=1" resultVariable="x" />'] });
const terminate = (id: string) =>
  endEvent(id, { children: [`<bpmn:terminateEventDefinition id="${id}_d" />`] });
const errorEnd = (id: string) =>
  endEvent(id, { children: [`<bpmn:errorEventDefinition id="${id}_d" />`] });
const linkThrow = (id: string, name: string) =>
  element("intermediateThrowEvent", id, {
    children: [`<bpmn:linkEventDefinition id="${id}_d" name="${name}" />`],
  });
const linkCatch = (id: string, name: string) =>
  element("intermediateCatchEvent", id, {
    children: [`<bpmn:linkEventDefinition id="${id}_d" name="${name}" />`],
  });
const overReviewers = (id: string, tag = "userTask", children: readonly string[] = []) =>
  element(tag, id, {
    children: [
      ...children,
      '<bpmn:multiInstanceLoopCharacteristics><bpmn:extensionElements><zeebe:loopCharacteristics inputCollection="=reviewers" inputElement="r" /></bpmn:extensionElements></bpmn:multiInstanceLoopCharacteristics>',
    ],
  });
/** An event sub-process whose start has this definition (interrupting unless told). */
const eventSub = (id: string, definition: string, interrupting = true) =>
  subProcess(
    id,
    [
      element("startEvent", `${id}S`, {
        ...(interrupting ? {} : { attrs: { isInterrupting: "false" } }),
        children: [definition],
      }),
      endEvent(`${id}E`),
      chain(`${id}S`, `${id}E`),
    ],
    { triggeredByEvent: true },
  );
const TIMER =
  '<bpmn:timerEventDefinition id="T_d"><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition>';
const MESSAGE = '<bpmn:messageEventDefinition id="M_d" messageRef="Msg" />';
/** An AI Agent task that calls the ad-hoc sub-process `Tools` for its tools. */
const checker = templatedTask(
  "Checker",
  "io.camunda.connectors.agenticai.aiagent.v1",
  "io.camunda.agenticai:aiagent:1",
  {
    "provider.type": "openai",
    "provider.openai.model.model": "gpt-4o",
    "data.tools.containerElementId": "Tools",
    "data.limits.maxModelCalls": "=5",
  },
);

/** The same task naming its container by FEEL agentflow cannot read, in a process of its own. */
const feelChecker = processElement(
  "Other",
  startEvent("OS"),
  checker
    .replace('source="Tools"', 'source="=toolsId"')
    .replace('id="Checker"', 'id="FeelChecker"'),
  endEvent("OE"),
  chain("OS", "FeelChecker", "OE"),
);

/** `S → A → G → E`, `G` the gate sub-process of `content` (`ad-hoc` attrs for an ad-hoc one). */
function gated(
  content: readonly (string | readonly string[])[],
  options: { readonly adHoc?: readonly string[]; readonly more?: readonly string[] } = {},
): string {
  const gate =
    options.adHoc === undefined
      ? subProcess("G", content, { ext: [gateMarker()] })
      : subProcess("G", content, { adHoc: true, ext: [gateMarker(), ...options.adHoc] });
  return definitions(
    processElement("P", startEvent("S"), A, gate, endEvent("E"), chain("S", "A", "G", "E")),
    ...(options.more ?? []),
    '<bpmn:message id="Msg" name="approved" />',
  );
}
/** The gate sub-process's usual frame: `GS → … → GE` along `ids`. */
const between = (...inner: readonly { readonly xml: string; readonly id: string }[]) => [
  startEvent("GS"),
  ...inner.map((i) => i.xml),
  endEvent("GE"),
  chain("GS", ...inner.map((i) => i.id), "GE"),
];
const UT = { xml: userTask("U"), id: "U" };

/** `"counts"`, or the end of the sentence that says why `G` does not. */
type Verdict = string;

const CASES: readonly (readonly [string, string, Verdict])[] = [
  ["a user task on the only path", gated(between(UT)), "counts"],
  [
    "a user task no flow reaches",
    gated([startEvent("GS"), endEvent("GE"), userTask("U"), flow("GS", "GE")]),
    SUB,
  ],
  [
    "an exclusive gateway whose other flow goes round the user task",
    gated([
      startEvent("GS"),
      exclusiveGateway("X"),
      userTask("U"),
      endEvent("GE"),
      chain("GS", "X", "U", "GE"),
      flow("X", "GE"),
    ]),
    SUB,
  ],
  [
    "an exclusive gateway with a user task on each way",
    gated([
      startEvent("GS"),
      exclusiveGateway("X"),
      userTask("U"),
      userTask("V"),
      endEvent("GE"),
      chain("GS", "X", "U", "GE"),
      chain("X", "V", "GE"),
    ]),
    "counts",
  ],
  [
    "a parallel split with the user task on one branch only (a path follows one branch)",
    gated([
      startEvent("GS"),
      parallelGateway("F"),
      userTask("U"),
      task("N"),
      parallelGateway("J"),
      endEvent("GE"),
      chain("GS", "F", "U", "J", "GE"),
      chain("F", "N", "J"),
    ]),
    SUB,
  ],
  [
    "an interrupting timer on the user task that leads to the end",
    gated([...between(UT), boundaryEvent("B", "U"), flow("B", "GE")]),
    SUB,
  ],
  [
    "a non-interrupting timer on the user task: the sub-process ends only once it completes",
    gated([
      ...between(UT),
      boundaryEvent("B", "U", false),
      task("N"),
      endEvent("NE"),
      chain("B", "N", "NE"),
    ]),
    "counts",
  ],
  [
    "a non-interrupting timer on the user task that leads to a terminate end",
    gated([...between(UT), boundaryEvent("B", "U", false), terminate("T"), flow("B", "T")]),
    SUB,
  ],
  [
    "an error end event on the way round the user task (an error never completes it)",
    gated([
      startEvent("GS"),
      exclusiveGateway("X"),
      userTask("U"),
      endEvent("GE"),
      errorEnd("Err"),
      chain("GS", "X", "U", "GE"),
      flow("X", "Err"),
    ]),
    "counts",
  ],
  [
    "a link from the start to a catch before the user task",
    gated([
      startEvent("GS"),
      linkThrow("LT", "L"),
      linkCatch("LC", "L"),
      userTask("U"),
      endEvent("GE"),
      flow("GS", "LT"),
      chain("LC", "U", "GE"),
    ]),
    "counts",
  ],
  [
    "a user task over a collection that may be empty",
    gated(between({ xml: overReviewers("U"), id: "U" })),
    SUB,
  ],
  [
    "a nested sub-process holding the user task on its only path",
    gated(
      between({
        xml: subProcess("In", [
          startEvent("IS"),
          userTask("U"),
          endEvent("IE"),
          chain("IS", "U", "IE"),
        ]),
        id: "In",
      }),
    ),
    "counts",
  ],
  [
    "a nested sub-process with a way round its user task",
    gated(
      between({
        xml: subProcess("In", [
          startEvent("IS"),
          exclusiveGateway("X"),
          userTask("U"),
          endEvent("IE"),
          chain("IS", "X", "U", "IE"),
          flow("X", "IE"),
        ]),
        id: "In",
      }),
    ),
    SUB,
  ],
  [
    "an interrupting timer event sub-process that completes it",
    gated([...between(UT), eventSub("Ev", TIMER)]),
    SUB,
  ],
  [
    "an interrupting event sub-process that waits for a message",
    gated([...between(UT), eventSub("Ev", MESSAGE)]),
    "counts",
  ],
  [
    "a non-interrupting timer event sub-process (it does not complete the sub-process)",
    gated([...between(UT), eventSub("Ev", TIMER, false)]),
    "counts",
  ],
  [
    "an agent task on the only path",
    gated(between({ xml: agent("Inner", { ref: "agnt-x@1.0.0", level: "4" }), id: "Inner" })),
    SUB,
  ],
  [
    "an AI Agent task and the tool container it calls, holding a user-task tool",
    gated(
      between(
        { xml: checker, id: "Checker" },
        { xml: subProcess("Tools", [userTask("AskHuman")], { adHoc: true }), id: "Tools" },
      ),
    ),
    SUB,
  ],
  [
    "the same ad-hoc sub-process when no agent calls it: its one element waits",
    gated(
      between({ xml: subProcess("Tools", [userTask("AskHuman")], { adHoc: true }), id: "Tools" }),
    ),
    "counts",
  ],
  [
    "an ad-hoc gate a client drives, whose only element waits",
    gated([userTask("U")], { adHoc: [] }),
    "counts",
  ],
  [
    "an ad-hoc gate a client may activate a script of",
    gated([userTask("U"), script("N")], { adHoc: [] }),
    AD_HOC,
  ],
  [
    "the same while an AI Agent task names its container by FEEL: it may be this one",
    gated([userTask("U")], { adHoc: [], more: [feelChecker] }),
    'an ad-hoc sub-process that may be the tool container of the agent "FeelChecker", which names its container by FEEL that cannot be read, so it may complete with nobody deciding',
  ],
  [
    "an ad-hoc gate whose static collection lists the user task",
    gated([userTask("U"), script("N")], {
      adHoc: ['<zeebe:adHoc activeElementsCollection="=[&#34;U&#34;]" />'],
    }),
    "counts",
  ],
  [
    "an ad-hoc gate whose static collection lists a script that leads to the user task",
    gated([script("N"), userTask("U"), flow("N", "U")], {
      adHoc: ['<zeebe:adHoc activeElementsCollection="=[&#34;N&#34;]" />'],
    }),
    "counts",
  ],
  [
    "the same with a completion condition that cancels what is active",
    gated(
      [
        script("N"),
        userTask("U"),
        flow("N", "U"),
        '<bpmn:completionCondition xsi:type="bpmn:tFormalExpression" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">=true</bpmn:completionCondition>',
      ],
      { adHoc: ['<zeebe:adHoc activeElementsCollection="=[&#34;N&#34;]" />'] },
    ),
    AD_HOC,
  ],
  [
    "an ad-hoc gate whose collection is read at run time",
    gated([userTask("U")], { adHoc: ['<zeebe:adHoc activeElementsCollection="=tasks" />'] }),
    'an ad-hoc sub-process whose elements the collection "=tasks" chooses at run time, so none that waits for anyone need run',
  ],
];

/** Whether `G` counts for `A`, or why not. */
async function verdict(xml: string): Promise<Verdict> {
  const decision: GateDecision = await checkProcess(await withDiagram(xml), {
    resolveWorkflow: () => WORKFLOW,
  });
  const parse = decision.blocking.filter((d) => d.code === "BPMN_PARSE");
  expect(parse).toEqual([]);
  const task = decision.agentTasks.find((t) => t.elementId === "A");
  const findings = decision.blocking.filter(
    (d) => "elementId" in d.target && d.target.elementId === "A",
  );
  const discounting = findings.filter((d) => JSON.stringify(d.data.discountedGates) === '["G"]');
  if (discounting.length === 0) {
    // It counts: the task reaches it (an uncaught error may still bypass it, another rule's).
    expect(task?.gate).not.toBe("missing");
    return "counts";
  }
  expect(findings.map((d) => [d.code, d.data.discountedGates])).toEqual([
    ["AGENT_GATE_UNREACHABLE", ["G"]],
  ]);
  const hint = String(findings[0]?.data.discountHint);
  const prefix = '; the gate after it does not count: "G" is ';
  expect(hint.startsWith(prefix)).toBe(true);
  return hint.slice(prefix.length);
}

describe("a gate sub-process counts when every path through it waits", () => {
  it.each(CASES)("%s", async (_name, xml, expected) => {
    expect(await verdict(xml)).toBe(expected);
  });
});
