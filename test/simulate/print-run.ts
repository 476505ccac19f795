/** Prints the shared scenario's JSON; determinism.test.ts runs this in a second process. */
import { scenario } from "./scenario.js";

process.stdout.write(JSON.stringify(scenario()));
