/** The canonical form of a document (RFC 8785) and its content hash (SPEC 2.7). */
export { canonicalJson, contentHash } from "./json.js";
export { sha256, sha256Bytes } from "./sha256.js";
