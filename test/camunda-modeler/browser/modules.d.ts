/**
 * Declarations for what the Modeler host page imports that ships no types: Camunda's linting
 * package (the Modeler's `Linter`, `@camunda/linting` 3) and the zeebe moddle descriptor.
 */
declare module "@camunda/linting" {
  /** One report, as the Modeler's Problems panel shows it. */
  export interface LintReport {
    readonly id: string;
    readonly message: string;
    readonly category: string;
    readonly rule: string;
  }

  /** The Modeler's linter: Camunda's rules and the plug-ins' `{ config, resolver }`. */
  export class Linter {
    constructor(options: {
      readonly modeler?: string;
      readonly type?: "cloud" | "platform";
      readonly plugins?: readonly unknown[];
    });
    lint(contents: unknown): Promise<LintReport[]>;
  }
}
