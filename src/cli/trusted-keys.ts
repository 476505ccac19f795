/**
 * The keys `verify` trusts: only those the deploy job names with `--trusted-keys`, never one an
 * envelope carries. A folder gives every `*.pub` and `*.pem` file in it (not below it); a file
 * gives its key; `role=path` grants the keys of `path` only that role (repeat it for more roles).
 * A key file that cannot be read as a public key is exit 2, as is a folder with no key: a deploy
 * gate that trusts nothing because of a typo must say so, not refuse every approval as untrusted.
 * Every key file read is a file of the run: `-o` may not write over one, nor write a file into a
 * folder of trusted keys under a name read as a key (the next run would read the report as one).
 */
import { existsSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { basename, dirname, extname, join, resolve } from "node:path";
import type { TrustedKey } from "../approval/index.js";
import { KeyFormatError, pemTrustedKey } from "../keys/index.js";
import { readText } from "./file-read.js";
import { describeFsError, fileIdentity } from "./fs-info.js";
import { UsageError } from "./io.js";
import type { ReadFile } from "./output.js";

/** The extensions of key files in a folder of trusted keys. */
const KEY_EXTENSIONS = new Set([".pub", ".pem"]);

/** Whether a folder of trusted keys gives the file `name` (`*.pub`, `*.pem`) as a key. */
export function isKeyFileName(name: string): boolean {
  return KEY_EXTENSIONS.has(extname(name));
}

/**
 * A role name as `role=path` gives it: letters (any script: `approve --role Kreditprüfer` is
 * one), digits, combining marks, `.`, `_`, `:` and `-`; no `=`, `/` or space, so a path is never
 * read as one.
 */
const ROLE = /^[\p{L}\p{N}][\p{L}\p{N}\p{M}._:-]*$/u;

/** One `--trusted-keys` value: a path, and the role it binds (none: any role the key claims). */
interface TrustedSpec {
  readonly path: string;
  readonly role?: string;
}

/** Reads `role=path` when the text is not itself an existing path and the part before `=` is a role. */
export function parseTrustedSpec(value: string): TrustedSpec {
  if (value.trim() === "") {
    throw new UsageError(
      "--trusted-keys '' is empty: give a folder or a key file (is a variable unset?)",
    );
  }
  const at = value.indexOf("=");
  if (at <= 0 || existsSync(value)) return { path: value };
  const role = value.slice(0, at);
  const path = value.slice(at + 1);
  if (!ROLE.test(role)) {
    // A role `approve` took (`risk officer`) that this form cannot bind: said, not a missing file.
    if (path !== "" && existsSync(path)) {
      throw new UsageError(
        `--trusted-keys '${value}': '${role}' cannot be bound as role=path: a role there is letters, digits, '.', '_', ':' and '-'`,
      );
    }
    return { path: value };
  }
  if (path === "") throw new UsageError(`--trusted-keys '${value}': no path after '${role}='`);
  return { path, role };
}

/** The key files a spec names: the file itself, or a folder's `*.pub`/`*.pem` files, sorted. */
async function keyFiles(path: string): Promise<string[]> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    throw new UsageError(`--trusted-keys '${path}': ${describeFsError(error)}`);
  }
  if (!info.isDirectory()) return [path];
  const entries = await readdir(path, { withFileTypes: true });
  const files = entries
    .filter((e) => isKeyFileName(e.name) && !e.isDirectory())
    .map((e) => e.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => join(path, name));
  if (files.length === 0) {
    throw new UsageError(
      `--trusted-keys '${path}': the folder holds no key (*.pub or *.pem); verify would trust no one`,
    );
  }
  return files;
}

/** A key file as a trusted key; any problem is a {@link UsageError} naming the file. */
async function trustedKeyOf(
  file: string,
  roles: readonly string[] | undefined,
): Promise<TrustedKey> {
  const pem = await readText(file, "the trusted key ");
  try {
    return pemTrustedKey(pem, file, roles);
  } catch (error) {
    if (error instanceof KeyFormatError) throw new UsageError(error.message);
    throw error;
  }
}

/** The trusted keys, and every key file read for them (each a file `-o` may not write over). */
export interface TrustedKeysRead {
  readonly keys: TrustedKey[];
  readonly reads: ReadFile[];
}

/**
 * The trusted keys the `--trusted-keys` values name, each key once, with the files they were read
 * from: a key named several times gets every role it is bound to, and any role when one of its
 * names binds none.
 */
export async function loadTrustedKeys(values: readonly string[]): Promise<TrustedKeysRead> {
  if (values.length === 0) {
    throw new UsageError("verify needs --trusted-keys <dir|file>: the keys whose signatures count");
  }
  // Key id → the roles granted (undefined: any), and a file to read it from.
  const grants = new Map<string, { file: string; roles: Set<string> | undefined }>();
  const reads: ReadFile[] = [];
  for (const value of values) {
    const spec = parseTrustedSpec(value);
    for (const file of await keyFiles(spec.path)) {
      reads.push({ path: file, role: "a trusted key" });
      const { keyid } = await trustedKeyOf(file, undefined);
      const known = grants.get(keyid);
      if (known === undefined) {
        grants.set(keyid, {
          file,
          roles: spec.role === undefined ? undefined : new Set([spec.role]),
        });
      } else if (spec.role === undefined) known.roles = undefined;
      else known.roles?.add(spec.role);
    }
  }
  const keys: TrustedKey[] = [];
  for (const { file, roles } of grants.values()) {
    keys.push(await trustedKeyOf(file, roles === undefined ? undefined : [...roles].sort()));
  }
  return { keys, reads };
}

/** {@link loadTrustedKeys}' keys alone. */
export async function readTrustedKeys(values: readonly string[]): Promise<TrustedKey[]> {
  return (await loadTrustedKeys(values)).keys;
}

/**
 * Refuses, as a {@link UsageError}, an `output` a folder of `--trusted-keys` would read as a key:
 * in that folder (by identity, whatever name reaches it) and named `*.pub` or `*.pem`. Written
 * there, the report would make the next run fail on a key file that is not one, or trust it.
 */
export async function checkOutputBesideKeys(
  output: string,
  values: readonly string[],
): Promise<void> {
  if (!isKeyFileName(basename(output))) return;
  const folder = await stat(dirname(resolve(output))).catch(() => undefined);
  if (folder === undefined) return;
  for (const value of values) {
    const path = parseTrustedSpec(value).path;
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory() !== true || fileIdentity(info) !== fileIdentity(folder)) continue;
    throw new UsageError(
      `-o '${output}' is in the trusted-keys folder '${path}' under a name read as a key (*.pub, *.pem): the next run would read it as a trusted key; write it elsewhere`,
    );
  }
}
