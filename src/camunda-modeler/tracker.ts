/**
 * Which project settings apply to the diagram being linted. The Modeler lints a diagram's moddle
 * definitions (or, after a save, the saved XML) with no word of its file; what it tells a client
 * plug-in is on its event bus: `bpmn.modeler.created` (an editor's bpmn-js modeller and its tab),
 * `app.activeTabChanged`, `tab.saved`, `tab.closed`, `app.focused`. The tracker keeps the open
 * editors and their tabs, reads each saved tab's project with the Modeler's file reader
 * (`fileSystem`, which the app hands plug-ins as `_getGlobal("fileSystem")`), again when the tab
 * is saved, shown, or the window regains focus (a config edited in another editor), and asks the
 * Modeler to lint the tab again when what it read changed.
 */
import type { AgentflowRules, BpmnlintCategory } from "../bpmn/lint/index.js";
import { createRules } from "../bpmn/lint/index.js";
import type { FileRead, ProjectRead, ReadFile } from "./project-read.js";
import { readProject } from "./project-read.js";
import { lintOptions, ruleCategories } from "./project-config.js";

/** A tab as the Modeler's events carry it. */
export interface ModelerTab {
  readonly id: string;
  readonly type?: string;
  readonly file?: { readonly path?: string | null } | null;
}

/** The part of a bpmn-js modeller the tracker uses. */
export interface DiagramEditor {
  getDefinitions(): unknown;
}

/** What the Modeler passes a client plug-in, as far as the tracker uses it. */
export interface ClientPluginProps {
  readonly subscribe: (event: string, callback: (event: never) => void) => unknown;
  readonly triggerAction: (action: string, options?: unknown) => unknown;
  readonly _getGlobal?: (name: string) => unknown;
}

/** The Modeler's `fileSystem` global (client/src/remote/FileSystem.js). */
interface ModelerFileSystem {
  readFile(path: string, options?: { encoding?: string }): Promise<{ contents?: unknown }>;
}

/** What the rules of one diagram run with. */
export interface ProjectSetup {
  /** The rules, built with the project's options (the defaults when none apply). */
  readonly rules: AgentflowRules;
  /** Each contributed rule's category, by rule name (`agent-gate-bypass`). */
  readonly categories: Readonly<Record<string, BpmnlintCategory>>;
  /** Errors: the config or a pack that could not be read or applied, a file that is unknown. */
  readonly problems: readonly string[];
  /** Notes: what the Modeler does not apply (the lint is stricter without it). */
  readonly unapplied: readonly string[];
  /** The project, when one was read. */
  readonly project?: ProjectRead;
}

interface Editor {
  readonly modeler: DiagramEditor;
  readonly tab: ModelerTab;
}

function pathOf(tab: ModelerTab | undefined): string | undefined {
  const path = tab?.file?.path;
  return typeof path === "string" && path !== "" ? path : undefined;
}

/** The Modeler's reader as a {@link ReadFile}: its errors carry Node.js's `code`. */
export function modelerReader(fileSystem: ModelerFileSystem): ReadFile {
  return async (path): Promise<FileRead> => {
    try {
      const file = await fileSystem.readFile(path, { encoding: "utf8" });
      const text = file.contents;
      return typeof text === "string"
        ? { kind: "text", text }
        : { kind: "error", message: "the Modeler returned no text" };
    } catch (error) {
      const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
      if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
      if (code === "EISDIR") return { kind: "folder" };
      return { kind: "error", message: typeof message === "string" ? message : String(error) };
    }
  };
}

function isFileSystem(value: unknown): value is ModelerFileSystem {
  return typeof (value as { readFile?: unknown } | null)?.readFile === "function";
}

/** What a project's read yields, compared to tell whether linting again shows anything new. */
function fingerprint(project: ProjectRead): string {
  return JSON.stringify({
    config: project.config,
    packs: project.packs.map((p) => p.sha256),
    problems: project.problems,
  });
}

let defaults: ProjectSetup | undefined;

/** The rules for a project read (or for none), with what is to be said about it. */
export function setupOf(project: ProjectRead | undefined): ProjectSetup {
  if (project === undefined) {
    defaults ??= {
      rules: createRules(),
      categories: ruleCategories(undefined, false),
      problems: [],
      unapplied: [],
    };
    return defaults;
  }
  const { config, packs } = project;
  const problems = [...(config?.problems ?? []), ...project.problems];
  const unapplied = config?.unapplied ?? [];
  const categories = ruleCategories(config, packs.length > 0);
  // readProjectConfig has checked every option createRules checks (waivers included, dropped on a
  // problem), so the project's own settings do not make it throw.
  const rules = createRules(lintOptions(config, packs));
  return { rules, categories, problems, unapplied, project };
}

/**
 * `build(project)` ({@link setupOf}), or, should building the rules throw all the same, the
 * defaults with the reason as an error: the tab of `path` must not stay "still being read" for
 * good (the read would never settle), nor lint silently.
 */
export function setupOrDefaults(
  path: string,
  project: ProjectRead,
  build: (project: ProjectRead) => ProjectSetup = setupOf,
): ProjectSetup {
  try {
    return build(project);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ...setupOf(undefined),
      problems: [
        ...(project.config?.problems ?? []),
        ...project.problems,
        `${path}: agentflow's rules cannot be built with its project's settings (${message}); the rules run with the defaults`,
      ],
      unapplied: project.config?.unapplied ?? [],
      project,
    };
  }
}

/** Keeps the Modeler's editors and the project settings of their files. */
export class ProjectTracker {
  readonly #editors: Editor[] = [];
  readonly #setups = new Map<string, ProjectSetup>();
  readonly #fingerprints = new Map<string, string>();
  readonly #pending = new Map<string, Promise<void>>();
  readonly #connected = new WeakSet();
  #active: ModelerTab | undefined;
  #read: ReadFile | undefined;
  #props: ClientPluginProps | undefined;
  #noReader = false;

  /**
   * Subscribes to the Modeler's events; called on every render of the client plug-in, so it
   * connects once per `subscribe` (the Modeler gives each plug-in one, and cancels its
   * subscriptions when the plug-in is unmounted).
   */
  connect(props: ClientPluginProps): void {
    if (this.#connected.has(props.subscribe)) return;
    this.#connected.add(props.subscribe);
    this.#props = props;
    const fileSystem = props._getGlobal?.("fileSystem");
    this.#noReader = !isFileSystem(fileSystem);
    this.#read = isFileSystem(fileSystem) ? modelerReader(fileSystem) : undefined;
    const on = (event: string, callback: (payload: never) => void) => {
      props.subscribe(event, callback);
    };
    // Payloads are read defensively: a listener that throws would break the app's own event.
    type Payload = Partial<Record<"modeler" | "tab" | "activeTab", unknown>> | undefined;
    const tabIn = (value: unknown) =>
      typeof (value as ModelerTab | undefined)?.id === "string" ? (value as ModelerTab) : undefined;
    on("bpmn.modeler.created", (payload: Payload) => {
      const modeler = payload?.modeler as DiagramEditor | undefined;
      const tab = tabIn(payload?.tab);
      if (typeof modeler?.getDefinitions !== "function" || tab === undefined) return;
      this.#editors.push({ modeler, tab });
      this.refresh(tab);
    });
    on("tab.closed", (payload: Payload) => {
      const tab = tabIn(payload?.tab);
      for (let i = this.#editors.length - 1; i >= 0; i--) {
        if (this.#editors[i]?.tab === tab) this.#editors.splice(i, 1);
      }
    });
    on("app.activeTabChanged", (payload: Payload) => {
      this.#active = tabIn(payload?.activeTab);
      this.refresh(this.#active);
    });
    on("tab.saved", (payload: Payload) => {
      this.refresh(tabIn(payload?.tab));
    });
    on("app.focused", () => {
      this.refresh(this.#active);
    });
  }

  /** Reads the project of a tab's file again; lints the tab again when it changed. */
  refresh(tab: ModelerTab | undefined): void {
    const path = pathOf(tab);
    const read = this.#read;
    if (tab === undefined || path === undefined || read === undefined) return;
    const previous = this.#pending.get(path) ?? Promise.resolve();
    const next = previous
      .then(() => readProject(path, read))
      .catch((error: unknown): ProjectRead => {
        // Reading never throws by design; should it, the lint says so rather than failing.
        const message = error instanceof Error ? error.message : String(error);
        return { packs: [], problems: [`${path}: its project could not be read: ${message}`] };
      })
      .then((project) => {
        const print = fingerprint(project);
        const changed = this.#fingerprints.get(path) !== print;
        this.#fingerprints.set(path, print);
        this.#setups.set(path, setupOrDefaults(path, project));
        if (changed) this.#lintAgain(tab);
      });
    this.#pending.set(path, next);
    void next.finally(() => {
      if (this.#pending.get(path) === next) this.#pending.delete(path);
    });
  }

  #lintAgain(tab: ModelerTab): void {
    for (const editor of this.#editors) {
      if (editor.tab !== tab) continue;
      // The modeller's definitions, as the editor lints them (with the btv extension typed).
      this.#props?.triggerAction("lint-tab", { tab, contents: editor.modeler.getDefinitions() });
    }
  }

  /** Resolves once every project read under way has finished. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending.values()]);
  }

  /** The tab a linted root belongs to: its editor's, else the active tab (a saved file's XML). */
  #tabOf(definitions: unknown): ModelerTab | undefined {
    const editor = this.#editors.find((e) => e.modeler.getDefinitions() === definitions);
    return editor?.tab ?? this.#active;
  }

  /** What the rules of the active tab run with (the Modeler lints the tab it shows). */
  activeSetup(): ProjectSetup {
    const path = pathOf(this.#active);
    return (path === undefined ? undefined : this.#setups.get(path)) ?? setupOf(undefined);
  }

  /** What the rules run with on this root. */
  setupFor(definitions: unknown): ProjectSetup {
    if (this.#props === undefined || this.#noReader) {
      const why =
        this.#props === undefined
          ? "the Modeler did not start agentflow's client plug-in"
          : "this Modeler gives plug-ins no file reader (_getGlobal('fileSystem'))";
      return {
        ...setupOf(undefined),
        problems: [`agentflow.config.json was not read: ${why}; the rules run with the defaults`],
      };
    }
    const path = pathOf(this.#tabOf(definitions));
    // An unsaved diagram has no folder, so no project: the defaults apply, as in a folder
    // without a config.
    if (path === undefined) return setupOf(undefined);
    const setup = this.#setups.get(path);
    if (setup !== undefined) return setup;
    this.refresh(this.#tabOf(definitions));
    return {
      ...setupOf(undefined),
      problems: [`${path}: its agentflow.config.json is still being read; linted again once read`],
    };
  }
}
