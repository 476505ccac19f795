/**
 * The Modeler hands the plug-in absolute paths of its system: POSIX or Windows. Folders, joins,
 * resolution of a config's relative paths and the inside-the-project check work for both.
 */
import { describe, expect, it } from "vitest";
import {
  basename,
  dirname,
  isAbsolute,
  isInside,
  joinPath,
  resolvePath,
  separatorOf,
} from "../../src/camunda-modeler/paths.js";

describe("Modeler paths", () => {
  it("takes folders of POSIX, drive and UNC paths, a root being its own folder", () => {
    expect(dirname("/home/ana/loans/loan.bpmn")).toBe("/home/ana/loans");
    expect(dirname("/loan.bpmn")).toBe("/");
    expect(dirname("/")).toBe("/");
    expect(dirname("C:\\Users\\ana\\loan.bpmn")).toBe("C:\\Users\\ana");
    expect(dirname("C:\\loan.bpmn")).toBe("C:\\");
    expect(dirname("C:\\")).toBe("C:\\");
    expect(dirname("\\\\server\\share\\loan.bpmn")).toBe("\\\\server\\share\\");
    expect(basename("C:\\Users\\ana\\loan.bpmn")).toBe("loan.bpmn");
  });

  it("resolves a config's relative paths in the separator of its folder", () => {
    expect(separatorOf("C:\\x")).toBe("\\");
    expect(separatorOf("/x")).toBe("/");
    expect(resolvePath("/repo/cfg", "policy/bank.policy.yaml")).toBe(
      "/repo/cfg/policy/bank.policy.yaml",
    );
    expect(resolvePath("/repo/cfg", "../shared/./p.yaml")).toBe("/repo/shared/p.yaml");
    expect(resolvePath("/repo", "../../../p.yaml")).toBe("/p.yaml");
    expect(resolvePath("C:\\repo\\cfg", "policy/bank.yaml")).toBe(
      "C:\\repo\\cfg\\policy\\bank.yaml",
    );
    expect(resolvePath("/repo", "/etc/p.yaml")).toBe("/etc/p.yaml");
    expect(joinPath("/repo/", ".git")).toBe("/repo/.git");
    expect(isAbsolute("C:/x")).toBe(true);
    expect(isAbsolute("x/y")).toBe(false);
  });

  it("tells a path inside the project from one beside it", () => {
    expect(isInside("/repo", "/repo/policy/p.yaml")).toBe(true);
    expect(isInside("/repo", "/repo")).toBe(true);
    expect(isInside("/repo", "/repository/p.yaml")).toBe(false);
    expect(isInside("/repo", "/repo/../etc/p.yaml")).toBe(false);
    expect(isInside("C:\\Repo", "c:\\repo\\p.yaml")).toBe(true);
    expect(isInside("/", "/anything")).toBe(true);
  });
});
