/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The page of the Camunda Modeler plug-in test (`../plugin.e2e.test.ts`): the parts of the
 * Camunda Desktop Modeler's window that load and use a client plug-in, as its code does them
 * (camunda/camunda-modeler, client/src/remote/Plugins.js, app/tabs/bpmn-shared/util/configure.js,
 * App.js, TabsProvider.js, plugins/PluginsRoot.js):
 *
 * - `window.vendor.propertiesPanel` holds the Modeler's properties panel, as `bindHelpers` sets it;
 * - each plug-in's script (named by its manifest) is loaded with a classic `<script>` tag, under the
 *   Modeler's Content-Security-Policy (`script-src 'self'`, set by the test's page);
 * - `window.plugins` is read by type (`Plugins.get`);
 * - `client` plug-ins are rendered with the plug-in props: they are function components without
 *   hooks, which React renders by calling them with those props;
 * - an editor's bpmn-js modeller gets the plug-ins' modules and moddle extensions (keyed by
 *   `name`), and its creation is emitted as `bpmn.modeler.created` with the tab;
 * - a tab is linted with `@camunda/linting`'s `Linter` and the plug-ins' `lintRules.<tab type>`,
 *   on the modeller's definitions (as the editor does) or on the saved XML (after a save);
 * - `fileSystem.readFile` answers over "IPC" (here: the test's server reads the disk), rejecting
 *   with `{ message, code }` as the Modeler's main process does.
 */
import "@bpmn-io/properties-panel/dist/assets/properties-panel.css";
import * as PropertiesPanel from "@bpmn-io/properties-panel";
import * as PreactHooks from "@bpmn-io/properties-panel/preact/hooks";
import type { LintReport } from "@camunda/linting";
import { Linter } from "@camunda/linting";
import BpmnModeler from "bpmn-js/lib/Modeler.js";
import * as BpmnJsPropertiesPanel from "bpmn-js-properties-panel";
import zeebe from "zeebe-bpmn-moddle/resources/zeebe.json" with { type: "json" };

/** A tab, as the Modeler's events carry it. */
export interface HostTab {
  readonly id: string;
  readonly type: "bpmn" | "cloud-bpmn";
  file: { path: string; contents: string; name: string };
}

/** A report as the test reads it. */
export type HostReport = Pick<LintReport, "id" | "message" | "category" | "rule">;

interface Registration {
  readonly type: string;
  readonly plugin: unknown;
}

interface HostModeler {
  importXML(xml: string): Promise<unknown>;
  getDefinitions(): unknown;
  saveXML(options: object): Promise<{ xml?: string }>;
  get(name: string): unknown;
  destroy(): void;
}

type Listener = (payload: never) => void;

const listeners = new Map<string, Listener[]>();
const actions: { action: string; tab?: string }[] = [];
const problems = new Map<string, HostReport[]>();
const tabs = new Map<string, { tab: HostTab; modeler: HostModeler }>();
let lastLint: Promise<unknown> = Promise.resolve();

declare global {
  interface Window {
    plugins?: Registration[];
    vendor?: unknown;
    modelerHost: typeof host;
  }
}

function getPlugins(type: string): unknown[] {
  return (window.plugins ?? []).filter((r) => r.type === type).map((r) => r.plugin);
}

function emit(event: string, payload: object): void {
  for (const listener of listeners.get(event) ?? []) listener(payload as never);
}

const fileSystem = {
  async readFile(path: string): Promise<{ path: string; contents: string }> {
    const response = await fetch(`/fs?path=${encodeURIComponent(path)}`);
    const body = (await response.json()) as { contents?: string; code?: string; message?: string };
    // The Modeler's IPC rejects with a plain object holding the error's message and code.
    if (body.contents === undefined) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- as the Modeler does
      return Promise.reject({ message: body.message, code: body.code });
    }
    return { path, contents: body.contents };
  },
};

function toReports(reports: readonly LintReport[]): HostReport[] {
  return reports.map(({ id, message, category, rule }) => ({ id, message, category, rule }));
}

async function lintTab(tab: HostTab, contents?: unknown): Promise<HostReport[]> {
  const linter = new Linter({
    modeler: "desktop",
    type: tab.type === "cloud-bpmn" ? "cloud" : "platform",
    plugins: getPlugins(`lintRules.${tab.type}`),
  });
  const reports = toReports(await linter.lint(contents ?? tab.file.contents));
  problems.set(tab.id, reports);
  return reports;
}

const props = {
  triggerAction(action: string, options?: { tab?: HostTab; contents?: unknown }) {
    actions.push({ action, ...(options?.tab === undefined ? {} : { tab: options.tab.id }) });
    if (action === "lint-tab" && options?.tab !== undefined) {
      lastLint = lintTab(options.tab, options.contents);
      return lastLint;
    }
    return undefined;
  },
  subscribe(event: string, callback: Listener) {
    listeners.set(event, [...(listeners.get(event) ?? []), callback]);
    return { cancel: () => undefined };
  },
  _getGlobal(name: string) {
    return name === "fileSystem" ? fileSystem : undefined;
  },
  getConfig: () => Promise.resolve(undefined),
  log: () => undefined,
  displayNotification: () => undefined,
};

const host = {
  /** Binds the vendored packages, loads the plug-ins' scripts and renders the client plug-ins. */
  async start(scripts: readonly { name: string; script: string }[]): Promise<string[]> {
    window.vendor = {
      propertiesPanel: {
        common: PropertiesPanel,
        preact: { hooks: PreactHooks },
        bpmn: BpmnJsPropertiesPanel,
      },
    };
    for (const { name, script } of scripts) {
      await new Promise<void>((resolve, reject) => {
        const tag = document.createElement("script");
        tag.src = script;
        tag.type = "text/javascript";
        tag.async = false;
        tag.dataset.name = name;
        tag.onload = () => {
          resolve();
        };
        tag.onerror = () => {
          reject(new Error(`${script} did not load`));
        };
        document.head.appendChild(tag);
      });
    }
    // Rendered twice: React calls a function component on every render of its parent.
    for (let render = 0; render < 2; render++) {
      for (const component of getPlugins("client")) (component as (p: object) => unknown)(props);
    }
    return (window.plugins ?? []).map((r) => r.type);
  },

  /** Opens a diagram in a new editor tab, as the Modeler's BPMN editor does. */
  async open(tab: HostTab): Promise<void> {
    const moddleExtensions: Record<string, unknown> = { zeebe };
    for (const extension of getPlugins("bpmn.modeler.moddleExtension")) {
      moddleExtensions[(extension as { name: string }).name] = extension;
    }
    const Modeler = BpmnModeler as unknown as new (options: object) => HostModeler;
    const modeler = new Modeler({
      container: "#canvas",
      propertiesPanel: { parent: "#properties" },
      additionalModules: [
        BpmnJsPropertiesPanel.BpmnPropertiesPanelModule,
        BpmnJsPropertiesPanel.BpmnPropertiesProviderModule,
        ...getPlugins("bpmn.modeler.additionalModules"),
        ...getPlugins(
          `bpmn.${tab.type === "cloud-bpmn" ? "cloud" : "platform"}.modeler.additionalModules`,
        ),
      ],
      moddleExtensions,
    });
    for (const open of tabs.values()) open.modeler.destroy();
    tabs.set(tab.id, { tab, modeler });
    emit("bpmn.modeler.created", { modeler, tab });
    emit("app.activeTabChanged", { activeTab: tab });
    await modeler.importXML(tab.file.contents);
  },

  /** Lints a tab as the editor does (`definitions`) or as the app does after a save (`saved`). */
  async lint(id: string, what: "definitions" | "saved"): Promise<HostReport[]> {
    const open = tabs.get(id);
    if (open === undefined) throw new Error(`no tab ${id}`);
    return lintTab(open.tab, what === "saved" ? undefined : open.modeler.getDefinitions());
  },

  /** Emits an app event with the tab (`tab.saved`, `app.focused`). */
  emit(event: string, id: string): void {
    emit(event, { tab: tabs.get(id)?.tab });
  },

  /** Resolves once the last lint the plug-in asked for is done. */
  idle: async (): Promise<void> => {
    await lastLint;
  },

  /** The last problems of a tab's lint, and the actions asked of the app so far. */
  problems: (id: string) => problems.get(id),
  actions: () => actions,

  /** Selects an element, so the properties panel shows it. */
  select(id: string, element: string): void {
    const open = tabs.get(id);
    if (open === undefined) throw new Error(`no tab ${id}`);
    const registry = open.modeler.get("elementRegistry") as { get(id: string): unknown };
    const selection = open.modeler.get("selection") as { select(element: unknown): void };
    selection.select(registry.get(element));
  },

  /** The properties panel's groups and their entries, as rendered. */
  panel(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const group of document.querySelectorAll("#properties [data-group-id]")) {
      const entries = [...group.querySelectorAll("[data-entry-id]")].map(
        (e) => e.getAttribute("data-entry-id") ?? "",
      );
      out[group.getAttribute("data-group-id") ?? ""] = entries;
    }
    return out;
  },

  /** Ticks an element's "Approval gate" checkbox in the group, and returns the saved XML. */
  async tickGate(id: string): Promise<string> {
    const open = tabs.get(id);
    if (open === undefined) throw new Error(`no tab ${id}`);
    const box = document.querySelector<HTMLInputElement>("#bio-properties-panel-agentflow-gate");
    if (box === null) throw new Error("no gate checkbox");
    box.click();
    const { xml } = await open.modeler.saveXML({ format: true });
    return xml ?? "";
  },
};

window.modelerHost = host;
