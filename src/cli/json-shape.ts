/**
 * Checks of a JSON value's shape, each typed by what it proves: declared as the type it checks
 * (`const s: Shape<T> = exact({…})`), a shape that leaves out a field the type requires does not
 * compile. Each says where (a JSON Pointer) and how a value departs from it. Closures, not a JSON
 * Schema compiled with Ajv: for the shapes of data agentflow itself wrote (cache-shape.ts), where
 * compiling a schema that deep at run time would cost more than the run it checks.
 */

/**
 * A check of a JSON value at a JSON Pointer: where and how it departs from the shape, or
 * `undefined` when it has it. `proves` is never set: it carries the type the check proves.
 */
export interface Shape<T> {
  (value: unknown, at: string): string | undefined;
  readonly proves?: T;
}

/** A value the test accepts; `what` says what it must be. */
export function is<T>(what: string, test: (value: unknown) => boolean): Shape<T> {
  return (value, at) => (test(value) ? undefined : `${at || "/"} is not ${what}`);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A string. */
export const text: Shape<string> = is("a string", (v) => typeof v === "string");
/** A boolean. */
export const flag: Shape<boolean> = is("a boolean", (v) => typeof v === "boolean");
/** An integer. */
export const integer: Shape<number> = is("an integer", Number.isInteger);
/** A number. */
export const number: Shape<number> = is("a number", (v) => typeof v === "number");
/** An object of any fields (a diagnostic's `data`). */
export const data: Shape<Readonly<Record<string, unknown>>> = is("an object", isObject);

/** A member of a string union, each given once: the compiler refuses a list missing one. */
export function oneOf<T extends string>(all: Record<T, 1>): Shape<T> {
  const names = Object.keys(all);
  return is(`one of ${names.join(", ")}`, (v) => typeof v === "string" && Object.hasOwn(all, v));
}

/** The shape, or `null`. */
export function nullable<T>(shape: Shape<T>): Shape<T | null> {
  return (value, at) => (value === null ? undefined : shape(value, at));
}

/** An array whose every item has the shape. */
export function list<T>(shape: Shape<T>): Shape<readonly T[]> {
  return (value, at) => {
    if (!Array.isArray(value)) return `${at || "/"} is not an array`;
    for (const [i, item] of value.entries()) {
      const problem = shape(item, `${at}/${String(i)}`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

/** The JSON Pointer of `key` below `at`. */
export function pointer(at: string, key: string): string {
  return `${at}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

/** An object whose every value has the shape, whatever the keys. */
export function map<T>(shape: Shape<T>): Shape<Readonly<Record<string, T>>> {
  return (value, at) => {
    if (!isObject(value)) return `${at || "/"} is not an object`;
    for (const [key, item] of Object.entries(value)) {
      const problem = shape(item, pointer(at, key));
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

/** A two-item array. */
export function pair<A, B>(first: Shape<A>, second: Shape<B>): Shape<readonly [A, B]> {
  return (value, at) => {
    if (!Array.isArray(value) || value.length !== 2) return `${at || "/"} is not a pair`;
    return first(value[0], `${at}/0`) ?? second(value[1], `${at}/1`);
  };
}

type Shapes<T> = { readonly [K in keyof T]: Shape<T[K]> };

/** An object with the `required` properties and perhaps the `optional` ones, and no other. */
export function exact<R extends object, O extends object = object>(
  required: Shapes<R>,
  optional?: Shapes<O>,
): Shape<R & Partial<O>> {
  const shapes = new Map<string, Shape<unknown>>([
    ...Object.entries<Shape<unknown>>(required),
    ...Object.entries<Shape<unknown>>(optional ?? {}),
  ]);
  return (value, at) => {
    if (!isObject(value)) return `${at || "/"} is not an object`;
    for (const key of Object.keys(required)) {
      if (!Object.hasOwn(value, key)) return `${at || "/"} lacks '${key}'`;
    }
    for (const [key, item] of Object.entries(value)) {
      const shape = shapes.get(key);
      if (shape === undefined) return `${pointer(at, key)} is not a field of its object`;
      const problem = shape(item, pointer(at, key));
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

/** One of the shapes; the first one's problem when none fits. */
export function either<T>(...shapes: readonly Shape<T>[]): Shape<T> {
  return (value, at) => {
    let first: string | undefined;
    for (const shape of shapes) {
      const problem = shape(value, at);
      if (problem === undefined) return undefined;
      first ??= problem;
    }
    return first;
  };
}

/** Exactly this string. */
export function literal<T extends string>(value: T): Shape<T> {
  return is(`"${value}"`, (v) => v === value);
}
