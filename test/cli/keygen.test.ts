/**
 * `agentflow keygen -o <name>`: a PKCS#8 private key readable by its owner only and an SPKI
 * public key, the key id printed; never over an existing key.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keyIdOf, readPrivateKey, readPublicKey } from "../../src/keys/index.js";
import { tempDir } from "../temp.js";
import { run } from "./run.js";

describe("agentflow keygen", () => {
  it.each([
    ["ed25519", [], "ed25519"],
    ["ecdsa-p256", ["--algorithm", "ecdsa-p256"], "ec"],
  ] as const)("writes a %s pair and prints its key id", async (_name, flags, type) => {
    const dir = tempDir("agentflow-keygen-");
    const name = join(dir, "alice");
    const out = await run("keygen", "-o", name, ...flags);
    expect(out.code).toBe(0);
    const privatePem = readFileSync(`${name}.key`, "utf8");
    const publicPem = readFileSync(`${name}.pub`, "utf8");
    expect(privatePem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(publicPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(statSync(`${name}.key`).mode & 0o777).toBe(0o600);
    expect(readPrivateKey(privatePem, "key").asymmetricKeyType).toBe(type);
    expect(readPublicKey(publicPem, "pub").asymmetricKeyType).toBe(type);
    expect(out.stdout).toBe(`${keyIdOf(publicPem)}\n`);
    expect(out.stdout).toMatch(/^[0-9a-f]{64}\n$/);
  });

  it("refuses to overwrite either file (exit 2) and leaves no half pair", async () => {
    const dir = tempDir("agentflow-keygen-");
    const name = join(dir, "alice");
    writeFileSync(`${name}.key`, "mine");
    const overKey = await run("keygen", "-o", name);
    expect(overKey.code).toBe(2);
    expect(overKey.stderr).toContain(`'${name}.key' exists; keygen never overwrites a key`);
    expect(readFileSync(`${name}.key`, "utf8")).toBe("mine");
    expect(existsSync(`${name}.pub`)).toBe(false);

    const other = join(dir, "bob");
    writeFileSync(`${other}.pub`, "theirs");
    const overPub = await run("keygen", "-o", other);
    expect(overPub.code).toBe(2);
    expect(overPub.stderr).toContain(`'${other}.pub' exists`);
    expect(readFileSync(`${other}.pub`, "utf8")).toBe("theirs");
    expect(existsSync(`${other}.key`)).toBe(false);
  });

  it.each([
    [[], "keygen needs -o <name>"],
    [["-o", "x", "--algorithm", "rsa"], "unknown algorithm 'rsa' (expected ed25519, ecdsa-p256)"],
    [["-o", "/no/such/folder/k"], "cannot write '/no/such/folder/k.key'"],
  ])("exits 2 for %j", async (argv, message) => {
    const out = await run("keygen", ...argv);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(message);
  });
});
