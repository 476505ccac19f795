/**
 * The entries of the "Agent governance" group, as the panel's entry components: the agent
 * workflow ref (checked as `id@version` as it is typed), the autonomy level, the gate marker
 * and its approver role, and the tool effect of an activity a Camunda agent may call. Each writes through the command stack (see `commands.ts`).
 */
import { CheckboxEntry, SelectEntry, TextFieldEntry } from "@bpmn-io/properties-panel";
import { useEffect, useState } from "@bpmn-io/properties-panel/preact/hooks";
import { useService } from "bpmn-js-properties-panel";
import { AUTONOMY_SCALE } from "../../autonomy/scale.js";
import { btvValue, stringAttr } from "../btv-read.js";
import { refProblemWith } from "../ref-words.js";
import type { RefParser } from "./ref-parser.js";
import { loadedRefParser, loadRefParser } from "./ref-parser.js";
import type { BpmnFactory, ModdleCommand } from "./commands.js";
import {
  AGENT_ATTRIBUTES,
  gateCommands,
  patchBtvCommands,
  toolEffectCommands,
} from "./commands.js";
import { TOOL_EFFECTS } from "../../bpmn/camunda/effect-mapping.js";
import type { ModdleObject } from "../../bpmn/index.js";

/** What the panel passes every entry component. */
export interface EntryProps {
  readonly element: { readonly businessObject: unknown };
  readonly id: string;
}

interface CommandStack {
  execute(command: string, context: unknown): void;
}

type Translate = (text: string, replacements?: Readonly<Record<string, string>>) => string;
type Debounce = (fn: (value: string) => void) => (value: string) => void;

function services(): {
  readonly run: (commands: readonly ModdleCommand[]) => void;
  readonly factory: BpmnFactory;
  readonly translate: Translate;
} {
  const commandStack = useService("commandStack") as CommandStack;
  const factory = useService("bpmnFactory") as BpmnFactory;
  const translate = (useService("translate") as Translate | undefined) ?? ((text: string) => text);
  return {
    run: (commands) => {
      if (commands.length > 0)
        commandStack.execute("properties-panel.multi-command-executor", commands);
    },
    factory,
    translate,
  };
}

/**
 * The ref parser, rendering the entry again once it is loaded (the panel validates at every
 * render). Until then the field shows no error: the gate itself still judges the ref, and a chunk
 * that cannot be fetched is said by the module's own evaluation (`agentflow.error`).
 */
function useRefParser(): RefParser | undefined {
  const [parse, setParse] = useState<RefParser | undefined>(loadedRefParser);
  useEffect(() => {
    if (parse !== undefined) return;
    loadRefParser().then(
      (loaded) => {
        setParse(() => loaded);
      },
      () => undefined,
    );
  }, [parse]);
  return parse;
}

/** The agent workflow ref of a task. */
export function WorkflowRefEntry(props: EntryProps): unknown {
  const { element, id } = props;
  const { run, factory, translate } = services();
  const debounce = useService("debounceInput") as Debounce;
  const parse = useRefParser();
  const agent = btvValue(element.businessObject, "btv:AgentTask");
  return TextFieldEntry({
    element,
    id,
    label: translate("Agent workflow ref"),
    description: translate("The reviewed workflow the task runs, as id@version."),
    debounce,
    getValue: () =>
      stringAttr(btvValue(element.businessObject, "btv:AgentTask"), "agentWorkflowRef") ?? "",
    setValue: (value) => {
      run(
        patchBtvCommands(
          element,
          "btv:AgentTask",
          { agentWorkflowRef: value.trim() },
          factory,
          AGENT_ATTRIBUTES,
        ),
      );
    },
    validate: (value) =>
      parse === undefined ? null : refProblemWith(parse, value.trim(), agent !== undefined),
  });
}

/** The autonomy level of a task: 0-5, or not set. */
export function AutonomyLevelEntry(props: EntryProps): unknown {
  const { element, id } = props;
  const { run, factory, translate } = services();
  const getValue = (): string =>
    stringAttr(btvValue(element.businessObject, "btv:AgentTask"), "autonomyLevel") ?? "";
  return SelectEntry({
    element,
    id,
    label: translate("Autonomy level"),
    getValue,
    setValue: (value) => {
      run(
        patchBtvCommands(
          element,
          "btv:AgentTask",
          { autonomyLevel: value },
          factory,
          AGENT_ATTRIBUTES,
        ),
      );
    },
    getOptions: () => {
      const options = [
        { value: "", label: translate("(not an agent task)") },
        ...AUTONOMY_SCALE.map((info) => ({
          value: String(info.level),
          label: `${info.level} · ${info.name}`,
        })),
      ];
      // A level outside the scale is shown as it is written, so the select does not hide it.
      const current = getValue();
      if (!options.some((o) => o.value === current)) {
        options.push({
          value: current,
          label: translate("{level} (not a level)", { level: current }),
        });
      }
      return options;
    },
  });
}

/** Whether the flow node is an approval gate (`btv:gate`). */
export function GateEntry(props: EntryProps): unknown {
  const { element, id } = props;
  const { run, factory, translate } = services();
  return CheckboxEntry({
    element,
    id,
    label: translate("Approval gate"),
    getValue: () => btvValue(element.businessObject, "btv:Gate") !== undefined,
    setValue: (value) => {
      run(gateCommands(element, value, factory));
    },
  });
}

/** The approver role of a gate. */
export function ApproverRoleEntry(props: EntryProps): unknown {
  const { element, id } = props;
  const { run, factory, translate } = services();
  const debounce = useService("debounceInput") as Debounce;
  return TextFieldEntry({
    element,
    id,
    label: translate("Approver role"),
    debounce,
    getValue: () => stringAttr(btvValue(element.businessObject, "btv:Gate"), "approverRole") ?? "",
    setValue: (value) => {
      run(patchBtvCommands(element, "btv:Gate", { approverRole: value.trim() }, factory, []));
    },
  });
}

/** The effect of an activity as a Camunda agent's tool (`btv:toolEffect`), or not set. */
export function ToolEffectEntry(props: EntryProps): unknown {
  const { element, id } = props;
  const { run, translate } = services();
  const getValue = (): string =>
    stringAttr(element.businessObject as ModdleObject, "toolEffect") ?? "";
  return SelectEntry({
    element,
    id,
    label: translate("Tool effect (Camunda agent tool)"),
    getValue,
    setValue: (value) => {
      run(toolEffectCommands(element, value));
    },
    getOptions: () => {
      const options = [
        { value: "", label: translate("(from the mapping or defaults)") },
        ...TOOL_EFFECTS.map((effect) => ({ value: effect, label: effect })),
      ];
      // A value that is no effect is shown as written (TOOL_EFFECT_INVALID reports it).
      const current = getValue();
      if (!options.some((o) => o.value === current)) {
        options.push({
          value: current,
          label: translate("{effect} (not an effect)", { effect: current }),
        });
      }
      return options;
    },
  });
}
