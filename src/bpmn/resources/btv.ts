/**
 * The moddle package descriptor of the `btv` extension, as code: bundlers (rollup 2 in
 * `bpmnlint-pack-config`, webpack, esbuild) read a JS module without a JSON plugin or import
 * attributes. `btv.json` beside it is the same descriptor for modellers
 * (`agentflow/bpmn/resources/btv.json`); `test/bpmn/descriptor.test.ts` keeps the two equal.
 */
export const BTV_DESCRIPTOR = {
  name: "agentflow BPMN extension",
  prefix: "btv",
  uri: "https://agentflow.dev/schema/btv/1.0",
  xml: {
    tagAlias: "lowerCase",
  },
  associations: [],
  types: [
    {
      name: "AgentTask",
      superClass: ["Element"],
      properties: [
        {
          name: "agentWorkflowRef",
          type: "String",
          isAttr: true,
        },
        {
          name: "autonomyLevel",
          type: "String",
          isAttr: true,
        },
        {
          name: "inputMapping",
          type: "String",
          isAttr: true,
        },
        {
          name: "outputMapping",
          type: "String",
          isAttr: true,
        },
      ],
    },
    {
      name: "AgentWorkflowSnapshot",
      superClass: ["Element"],
      properties: [
        {
          name: "version",
          type: "String",
          isAttr: true,
        },
        {
          name: "body",
          type: "String",
          isBody: true,
        },
      ],
    },
    {
      name: "Gate",
      superClass: ["Element"],
      properties: [
        {
          name: "approverRole",
          type: "String",
          isAttr: true,
        },
        {
          name: "name",
          type: "String",
          isAttr: true,
        },
      ],
    },
    {
      name: "ToolEffectCarrier",
      isAbstract: true,
      extends: ["bpmn:FlowNode"],
      properties: [
        {
          name: "toolEffect",
          type: "String",
          isAttr: true,
        },
      ],
    },
    {
      name: "AgentWorkflowRefCarrier",
      isAbstract: true,
      extends: ["bpmn:Activity"],
      properties: [
        {
          name: "agentWorkflowRef",
          type: "String",
          isAttr: true,
        },
      ],
    },
  ],
  enumerations: [],
} as const;
