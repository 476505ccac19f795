/**
 * Ajv's runtime helpers that its standalone code calls (`generated/validators.ts`), as ES module
 * exports: the generated code `require`s them, which an ES module cannot. Only what the checks use.
 */
import ucs2lengthModule from "ajv/dist/runtime/ucs2length.js";

type Ucs2length = typeof ucs2lengthModule.default;

/**
 * The default export of one of Ajv's CommonJS modules: Node hands an ES module the `exports`
 * object, whose `default` is the function; bundlers and Vite, honouring `__esModule`, hand it the
 * function itself.
 */
function defaultOf(imported: unknown): Ucs2length {
  if (typeof imported === "function") return imported as Ucs2length;
  return (imported as { default: Ucs2length }).default;
}

/** The length of a string in code points, as `minLength` counts it. */
export const ucs2length = defaultOf(ucs2lengthModule);
