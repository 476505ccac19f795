/**
 * A REST tool's `GET` is `read` only when nothing else decides the method or the server: a
 * method override header (`X-HTTP-Method-Override`, `X-HTTP-Method`, `X-Method-Override`) takes
 * its method's effect, a header map that cannot be read may hold one, and a URL whose server the
 * model chooses (`fromAi` before the server is fixed) leaves the effect unknown (red team: a GET
 * with `X-HTTP-Method-Override: DELETE`, and a GET to `=fromAi(toolCall.url, …)`, read as `read`).
 */
import { describe, expect, it } from "vitest";
import { checkProcess } from "../../../src/bpmn/index.js";
import { effects, fixture, modelerAgent, READINGS, templatedTask } from "./fixtures.js";

const ORDERS =
  "=&#34;https://shop.example.com/orders/&#34; + fromAi(toolCall.order, &#34;Order&#34;)";

/** A REST tool `Look` (template `HttpJson.v2` on its job type) with these inputs. */
const rest = (inputs: Readonly<Record<string, string>>) =>
  templatedTask("Look", "io.camunda.connectors.HttpJson.v2", "io.camunda:http-json:1", {
    "authentication.type": "noAuth",
    ...inputs,
  });
const get = (more: Readonly<Record<string, string>> = {}) =>
  rest({ method: "GET", url: "https://shop.example.com/orders", ...more });
const KEY = "io.camunda.connectors.HttpJson.v2";

const CASES: readonly (readonly [string, string, string])[] = [
  ["a GET to a fixed URL", get(), `Look: read (default, ${KEY} method=GET)`],
  [
    "a GET whose path the model chooses after a fixed server",
    get({ url: ORDERS }),
    `Look: read (default, ${KEY} method=GET)`,
  ],
  [
    "a GET with headers that hold no override",
    get({ headers: "={&#34;Accept&#34;: &#34;application/json&#34;}" }),
    `Look: read (default, ${KEY} method=GET)`,
  ],
  [
    "a GET with X-HTTP-Method-Override: DELETE",
    get({ headers: "={&#34;X-HTTP-Method-Override&#34;: &#34;DELETE&#34;}" }),
    `Look: write-irreversible (default, ${KEY} method=GET X-HTTP-Method-Override=DELETE)`,
  ],
  [
    "a GET with x-http-method: PATCH (header names are case-insensitive)",
    get({ headers: "={&#34;x-http-method&#34;: &#34;PATCH&#34;}" }),
    `Look: write-irreversible (default, ${KEY} method=GET x-http-method=PATCH)`,
  ],
  [
    "a GET with X-Method-Override the model chooses",
    get({ headers: "={&#34;X-Method-Override&#34;: fromAi(toolCall.verb)}" }),
    `Look: write-irreversible (default, ${KEY} method=GET X-Method-Override=?)`,
  ],
  [
    "a GET with X-HTTP-Method-Override: GET",
    get({ headers: "={&#34;X-HTTP-Method-Override&#34;: &#34;GET&#34;}" }),
    `Look: read (default, ${KEY} method=GET X-HTTP-Method-Override=GET)`,
  ],
  [
    "a GET whose headers are a variable (they may hold an override)",
    get({ headers: "=requestHeaders" }),
    `Look: write-irreversible (default, ${KEY} method=GET headers=?)`,
  ],
  [
    "a GET whose whole URL the model chooses",
    get({ url: "=fromAi(toolCall.url, &#34;Any URL&#34;)" }),
    `Look: unknown (unknown, ${KEY})`,
  ],
  [
    "a GET whose server the model chooses",
    get({ url: "=&#34;https://&#34; + fromAi(toolCall.host) + &#34;/orders&#34;" }),
    `Look: unknown (unknown, ${KEY})`,
  ],
  [
    "a GET whose server name the model may extend",
    get({ url: "=&#34;https://shop.example.com&#34; + fromAi(toolCall.path)" }),
    `Look: unknown (unknown, ${KEY})`,
  ],
  [
    "a POST with X-HTTP-Method-Override: GET stays a write",
    rest({
      method: "POST",
      url: "https://shop.example.com/orders",
      headers: "={&#34;X-HTTP-Method-Override&#34;: &#34;GET&#34;}",
    }),
    `Look: write-irreversible (default, ${KEY} method=POST)`,
  ],
];

describe.each(READINGS)("what a REST GET proves (%s)", (_, reading) => {
  it.each(CASES)("%s", async (_name, tool, expected) => {
    expect(effects(await checkProcess(modelerAgent(tool), reading))).toEqual([expected]);
  });

  it.each([
    [
      "E1: a GET with X-HTTP-Method-Override: DELETE",
      "E1-get-method-override-header",
      "LookupOrder: write-irreversible (default, io.camunda.connectors.HttpJson.v2 method=GET X-HTTP-Method-Override=DELETE)",
    ],
    [
      "E1b: a GET to a URL the model chooses",
      "E1b-get-url-model-chosen",
      "Fetch: unknown (unknown, io.camunda.connectors.HttpJson.v2)",
    ],
  ])("%s (red team)", async (_name, name, expected) => {
    const decision = await checkProcess(fixture(`redteam/${name}.bpmn`), reading);
    expect(effects(decision)).toContain(expected);
    expect(decision.allowed).toBe(false);
    const tool = expected.slice(0, expected.indexOf(":"));
    expect(
      decision.blocking
        .filter((d) => d.code === "TOOL_EFFECT_NEEDS_GATE")
        .map((d) => d.data.nodeId),
    ).toContain(tool);
    if (expected.includes("unknown")) {
      const said = [...decision.blocking, ...decision.warnings].map((d) => d.message);
      expect(said.some((m) => m.includes("the model chooses the server of its URL"))).toBe(true);
    }
  });
});
