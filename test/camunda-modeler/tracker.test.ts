/**
 * Which project settings the rules run with on a linted diagram: the tracker hears the Modeler's
 * events (as a client plug-in is given them), reads each tab's project with the Modeler's file
 * reader, and asks the app to lint a tab again when what it read changed. Without the events or
 * the reader it says so on every lint instead of using the defaults silently.
 */
import { describe, expect, it } from "vitest";
import type { ClientPluginProps, ModelerTab } from "../../src/camunda-modeler/tracker.js";
import { ProjectTracker, setupOrDefaults } from "../../src/camunda-modeler/tracker.js";
import { readProjectConfig } from "../../src/camunda-modeler/project-config.js";

type Listener = (payload: never) => void;

/** The Modeler's side: events, the recorded actions, and a disk its reader answers from. */
function modeler(files: Record<string, string>) {
  const listeners = new Map<string, Listener[]>();
  const actions: { action: string; tab: string | undefined; contents: unknown }[] = [];
  let subscriptions = 0;
  const props: ClientPluginProps = {
    subscribe: (event, callback) => {
      subscriptions++;
      listeners.set(event, [...(listeners.get(event) ?? []), callback]);
      return { cancel: () => undefined };
    },
    triggerAction: (action, options) => {
      const o = options as { tab?: ModelerTab; contents?: unknown } | undefined;
      actions.push({ action, tab: o?.tab?.id, contents: o?.contents });
    },
    _getGlobal: (name) =>
      name !== "fileSystem"
        ? undefined
        : {
            readFile: (path: string) =>
              path in files
                ? Promise.resolve({ contents: files[path] })
                : // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the Modeler's IPC rejects with a plain object
                  Promise.reject({ code: "ENOENT", message: path }),
          },
  };
  const emit = (event: string, payload: object) => {
    for (const l of listeners.get(event) ?? []) l(payload as never);
  };
  return { props, emit, actions, subscriptions: () => subscriptions };
}

const tab = (id: string, path: string): ModelerTab => ({ id, type: "cloud-bpmn", file: { path } });

describe("ProjectTracker", () => {
  it("reads an opened tab's project and lints the tab again with its definitions", async () => {
    const files = {
      "/r/.git": "",
      "/r/agentflow.config.json": '{"rules":{"AGENT_UNRESOLVED":"off"}}',
    };
    const host = modeler(files);
    const tracker = new ProjectTracker();
    tracker.connect(host.props);
    const count = host.subscriptions();
    tracker.connect(host.props);
    expect(host.subscriptions()).toBe(count);

    const definitions = { $type: "bpmn:Definitions", id: "D" };
    const loan = tab("t1", "/r/p/loan.bpmn");
    host.emit("bpmn.modeler.created", {
      modeler: { getDefinitions: () => definitions },
      tab: loan,
    });
    host.emit("app.activeTabChanged", { activeTab: loan });
    await tracker.settled();
    expect(host.actions).toEqual([{ action: "lint-tab", tab: "t1", contents: definitions }]);
    const setup = tracker.setupFor(definitions);
    expect(setup.problems).toEqual([]);
    expect(setup.categories["agent-unresolved"]).toBe("off");
    // The saved XML's root is another object: it is the active tab's.
    expect(tracker.setupFor({ $type: "bpmn:Definitions" }).categories["agent-unresolved"]).toBe(
      "off",
    );
    expect(tracker.activeSetup()).toBe(setup);

    // Focus again with nothing changed: no lint; a changed config: the tab is linted again.
    host.emit("app.focused", {});
    await tracker.settled();
    expect(host.actions).toHaveLength(1);
    files["/r/agentflow.config.json"] = "{ not json";
    host.emit("app.focused", {});
    await tracker.settled();
    expect(host.actions).toHaveLength(2);
    expect(tracker.setupFor(definitions).problems).toEqual([
      expect.stringMatching(/^\/r\/agentflow\.config\.json:1:\d+: not JSON: /) as unknown,
    ]);
    // The tab closed: its root is no longer known, and the active tab's settings apply.
    host.emit("tab.closed", { tab: loan });
    host.emit("app.activeTabChanged", { activeTab: tab("t2", "") });
    expect(tracker.setupFor(definitions).problems).toEqual([]);
  });

  it("says a malformed waiver at its place and lints with no waiver of the config", async () => {
    const waiver = { rule: "AGENT_GATE_UNREACHABLE", process: "Loans", reason: "pilot" };
    const host = modeler({
      "/r/.git": "",
      "/r/agentflow.config.json": JSON.stringify({ waivers: [waiver] }),
    });
    const tracker = new ProjectTracker();
    tracker.connect(host.props);
    const definitions = { $type: "bpmn:Definitions" };
    const loan = tab("t1", "/r/loan.bpmn");
    host.emit("bpmn.modeler.created", {
      modeler: { getDefinitions: () => definitions },
      tab: loan,
    });
    await tracker.settled();
    const setup = tracker.setupFor(definitions);
    expect(setup.problems).toEqual([
      "/r/agentflow.config.json: /waivers/0: missing 'grantedBy'",
      "/r/agentflow.config.json: /waivers/0: missing 'expires'",
    ]);
    expect(setup.project?.config?.waivers).toBeUndefined();
    expect(setup.categories.waived).toBe("off");
  });

  it("says it read nothing when the Modeler did not start it or gives no reader", () => {
    const root = { $type: "bpmn:Definitions" };
    expect(new ProjectTracker().setupFor(root).problems).toEqual([
      "agentflow.config.json was not read: the Modeler did not start agentflow's client plug-in; the rules run with the defaults",
    ]);
    const tracker = new ProjectTracker();
    tracker.connect({ ...modeler({}).props, _getGlobal: () => undefined });
    expect(tracker.setupFor(root).problems).toEqual([
      "agentflow.config.json was not read: this Modeler gives plug-ins no file reader (_getGlobal('fileSystem')); the rules run with the defaults",
    ]);
  });

  it("says a project still being read, and lints the tab again once it is", async () => {
    const host = modeler({ "/r/package.json": "{}" });
    const tracker = new ProjectTracker();
    tracker.connect(host.props);
    const definitions = { $type: "bpmn:Definitions" };
    const loan = tab("t1", "/r/loan.bpmn");
    host.emit("bpmn.modeler.created", {
      modeler: { getDefinitions: () => definitions },
      tab: loan,
    });
    expect(tracker.setupFor(definitions).problems).toEqual([
      "/r/loan.bpmn: its agentflow.config.json is still being read; linted again once read",
    ]);
    await tracker.settled();
    expect(tracker.setupFor(definitions).problems).toEqual([]);
    expect(host.actions.map((a) => a.action)).toEqual(["lint-tab"]);
    // Events without the payload the plug-in expects are ignored, not thrown at the app.
    for (const event of [
      "bpmn.modeler.created",
      "tab.closed",
      "app.activeTabChanged",
      "tab.saved",
    ]) {
      expect(() => {
        host.emit(event, undefined as unknown as object);
      }).not.toThrow();
    }
  });

  it("says why the rules cannot be built and runs the defaults, should building them throw", () => {
    const config = readProjectConfig(
      "/r/agentflow.config.json",
      '{"rules":{"AGENT_UNRESOLVED":"off"},"registry":"reg","preset":"nope"}',
    );
    const project = { config, packs: [], problems: ["/r/p.yaml: cannot be read"] };
    const setup = setupOrDefaults("/r/loan.bpmn", project, () => {
      throw new TypeError("createRules: refused");
    });
    expect(setup.problems).toEqual([
      expect.stringMatching(/^\/r\/agentflow\.config\.json: \/registry: /),
      "/r/agentflow.config.json: /preset: must be one of recommended, strict, all",
      "/r/p.yaml: cannot be read",
      "/r/loan.bpmn: agentflow's rules cannot be built with its project's settings (createRules: refused); the rules run with the defaults",
    ]);
    expect(setup.unapplied).toEqual(config.unapplied);
    expect(setup.project).toBe(project);
    // The defaults, not the config's "off": the stricter reading while its settings cannot apply.
    expect(setup.categories["agent-unresolved"]).toBe("warn");
    // Nothing thrown: the same project read gives the rules it sets.
    expect(setupOrDefaults("/r/loan.bpmn", project).categories["agent-unresolved"]).toBe("off");
  });
});
