/**
 * The "Agent governance" group of bpmn-js-properties-panel: on tasks (and anything already
 * declaring an agent) the workflow ref and the autonomy level; on every flow node the gate
 * marker, and its approver role once it is a gate; on every activity the tool effect it has when
 * a Camunda AI agent calls it (simpler than finding the agent whose container holds it).
 */
import {
  Group,
  isCheckboxEntryEdited,
  isSelectEntryEdited,
  isTextFieldEntryEdited,
} from "@bpmn-io/properties-panel";
import { btvValue, isType } from "../btv-read.js";
import {
  ApproverRoleEntry,
  AutonomyLevelEntry,
  GateEntry,
  ToolEffectEntry,
  WorkflowRefEntry,
} from "./entries.js";

/** The group's id in the panel. */
export const GROUP_ID = "agentflow-governance";

/** A group as the panel renders it. */
export interface PanelGroup {
  readonly id: string;
  readonly label: string;
  readonly component: unknown;
  readonly shouldOpen: boolean;
  readonly entries: readonly {
    readonly id: string;
    readonly component: unknown;
    readonly isEdited: (node: unknown) => boolean;
  }[];
}

/** The part of bpmn-js-properties-panel's `propertiesPanel` service the provider calls. */
export interface PropertiesPanel {
  registerProvider(priority: number, provider: AgentflowPropertiesProvider): void;
}

type Translate = (text: string) => string;

/** diagram-js's `injector`, as the provider uses it. */
export interface Injector {
  get(name: string, strict?: boolean): unknown;
}

/** Below the panel's own providers, so the group comes after theirs. */
const PRIORITY = 500;

/** The provider, registered as `agentflowPropertiesProvider`. */
export class AgentflowPropertiesProvider {
  /** What diagram-js injects, in constructor order. */
  static readonly $inject = ["propertiesPanel", "injector"];

  readonly #translate: Translate;

  /** Registers itself with the panel. */
  constructor(propertiesPanel: PropertiesPanel, injector: Injector) {
    const translate = injector.get("translate", false) as Translate | undefined;
    this.#translate = translate ?? ((text) => text);
    propertiesPanel.registerProvider(PRIORITY, this);
  }

  /** Adds the group to the groups of flow nodes. */
  getGroups(element: { readonly businessObject: unknown; readonly labelTarget?: unknown }) {
    return (groups: readonly unknown[]): unknown[] => {
      const group = this.group(element);
      return group === undefined ? [...groups] : [...groups, group];
    };
  }

  /** The group for an element, or `undefined` when it is no flow node. */
  group(element: {
    readonly businessObject: unknown;
    readonly labelTarget?: unknown;
  }): PanelGroup | undefined {
    const bo = element.businessObject;
    if (element.labelTarget !== undefined || !isType(bo, "bpmn:FlowNode")) return undefined;
    const entries: PanelGroup["entries"][number][] = [];
    if (isType(bo, "bpmn:Task") || btvValue(bo, "btv:AgentTask") !== undefined) {
      entries.push(
        {
          id: "agentflow-workflowRef",
          component: WorkflowRefEntry,
          isEdited: isTextFieldEntryEdited,
        },
        {
          id: "agentflow-autonomyLevel",
          component: AutonomyLevelEntry,
          isEdited: isSelectEntryEdited,
        },
      );
    }
    entries.push({ id: "agentflow-gate", component: GateEntry, isEdited: isCheckboxEntryEdited });
    if (btvValue(bo, "btv:Gate") !== undefined) {
      entries.push({
        id: "agentflow-approverRole",
        component: ApproverRoleEntry,
        isEdited: isTextFieldEntryEdited,
      });
    }
    if (isType(bo, "bpmn:Activity")) {
      entries.push({
        id: "agentflow-toolEffect",
        component: ToolEffectEntry,
        isEdited: isSelectEntryEdited,
      });
    }
    return {
      id: GROUP_ID,
      label: this.#translate("Agent governance"),
      component: Group,
      shouldOpen: true,
      entries,
    };
  }
}
