/**
 * The ref parser the "Agent workflow ref" field checks with, taken from the engine's chunk
 * (`../engine.ts`) rather than imported: the parser lives behind `model/`'s face, and a bundler
 * that splits chunks (esbuild) puts every file that face reaches into the page's first load once
 * one file of the page imports it, used or not. The module's service loads the same chunk at the
 * first evaluation, so the panel fetches nothing more.
 */
import type { RefParseResult } from "../../model/index.js";

/** A ref parser: `parseRef` of agentflow/model. */
export type RefParser = (ref: string) => RefParseResult;

let parser: RefParser | undefined;
let loading: Promise<RefParser> | undefined;

/** The parser once loaded; `undefined` before. */
export function loadedRefParser(): RefParser | undefined {
  return parser;
}

/** Loads the parser, once; a failed load is tried again by the next caller. */
export function loadRefParser(): Promise<RefParser> {
  loading ??= import("../engine.js").then(
    (engine) => {
      parser = engine.parseRef;
      return parser;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
