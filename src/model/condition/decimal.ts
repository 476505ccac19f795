/**
 * Exact rational arithmetic for condition evaluation (SPEC 2.6: "evaluation must never give a
 * wrong answer"). FEEL numbers are decimals, so `0.1 + 0.2 = 0.3` is true in FEEL; a double says
 * false. Every number is held as a reduced fraction of two BigInts, which makes `+ - * /` and every
 * comparison exact.
 *
 * Sizes are bounded so that hostile input cannot make an evaluation slow: literals have at most
 * {@link MAX_DECIMAL_DIGITS} digits and every result at most {@link MAX_RATIONAL_BITS} bits in its
 * numerator and denominator; an operation that would exceed that returns undefined, which the
 * evaluator reports as undecidable.
 */

/** A reduced fraction: `den > 0` and `gcd(num, den) = 1`, so equal values have equal fields. */
export interface Rational {
  readonly num: bigint;
  readonly den: bigint;
}

/** Longer decimal literals are refused: no real threshold needs more, and BigInt cost grows. */
export const MAX_DECIMAL_DIGITS = 100;

/**
 * The bound on an intermediate result. 4096 bits (about 1233 decimal digits) is far more than any
 * condition needs, and keeps each gcd and multiplication in the microsecond range.
 */
export const MAX_RATIONAL_BITS = 4096;

/** Exponents beyond what a double can carry are refused; JS numbers never need more. */
const MAX_EXPONENT = 400;

const ZERO = 0n;
const ONE = 1n;

function gcd(a: bigint, b: bigint): bigint {
  let x = a < ZERO ? -a : a;
  let y = b < ZERO ? -b : b;
  while (y !== ZERO) {
    const t = x % y;
    x = y;
    y = t;
  }
  return x;
}

/** True when `value` fits in `bits` bits; cheaper than formatting the whole number. */
function fits(value: bigint, bits: number): boolean {
  const magnitude = value < ZERO ? -value : value;
  return magnitude >> BigInt(bits) === ZERO;
}

/** Builds a reduced rational, or undefined when it would exceed {@link MAX_RATIONAL_BITS}. */
function make(num: bigint, den: bigint): Rational | undefined {
  if (den < ZERO) {
    num = -num;
    den = -den;
  }
  const g = gcd(num, den);
  if (g > ONE) {
    num /= g;
    den /= g;
  }
  if (!fits(num, MAX_RATIONAL_BITS) || !fits(den, MAX_RATIONAL_BITS)) return undefined;
  return { num, den };
}

/** The rational for an integer. */
export function fromBigInt(value: bigint): Rational | undefined {
  return make(value, ONE);
}

/** Why a decimal text was refused, so that messages can say what to change. */
export type DecimalParseError = "format" | "exponent" | "too-many-digits";

/** The outcome of {@link parseDecimal}. */
export type DecimalParseResult =
  | { readonly ok: true; readonly value: Rational }
  | { readonly ok: false; readonly reason: DecimalParseError };

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/**
 * Reads a decimal text exactly: `-12`, `0.1`, `.5`, `-.5`, and with `allowExponent` the forms
 * `String(number)` produces (`1e-7`, `1.5e+21`). FEEL literals are read without exponents because
 * FEEL has none (feelin reads `1e3` as 1). One forward pass; never throws.
 */
export function parseDecimal(text: string, allowExponent = false): DecimalParseResult {
  let i = 0;
  const n = text.length;
  let negative = false;
  if (text.charCodeAt(0) === 45 || text.charCodeAt(0) === 43) {
    negative = text.charCodeAt(0) === 45;
    i = 1;
  }
  const intStart = i;
  while (i < n && isDigit(text.charCodeAt(i))) i += 1;
  const intDigits = text.slice(intStart, i);
  let fracDigits = "";
  if (i < n && text.charCodeAt(i) === 46) {
    const fracStart = i + 1;
    i = fracStart;
    while (i < n && isDigit(text.charCodeAt(i))) i += 1;
    fracDigits = text.slice(fracStart, i);
    if (fracDigits === "") return { ok: false, reason: "format" };
  }
  if (intDigits === "" && fracDigits === "") return { ok: false, reason: "format" };
  let exponent = 0;
  if (i < n && (text.charCodeAt(i) === 101 || text.charCodeAt(i) === 69)) {
    if (!allowExponent) return { ok: false, reason: "exponent" };
    i += 1;
    let expNegative = false;
    if (text.charCodeAt(i) === 45 || text.charCodeAt(i) === 43) {
      expNegative = text.charCodeAt(i) === 45;
      i += 1;
    }
    const expStart = i;
    while (i < n && isDigit(text.charCodeAt(i))) i += 1;
    const expDigits = text.slice(expStart, i);
    if (expDigits === "" || expDigits.length > 4) return { ok: false, reason: "format" };
    exponent = Number(expDigits);
    if (exponent > MAX_EXPONENT) return { ok: false, reason: "too-many-digits" };
    if (expNegative) exponent = -exponent;
  }
  if (i !== n) return { ok: false, reason: "format" };
  if (intDigits.length + fracDigits.length > MAX_DECIMAL_DIGITS) {
    return { ok: false, reason: "too-many-digits" };
  }
  let num = BigInt(intDigits + fracDigits);
  if (negative) num = -num;
  const scale = exponent - fracDigits.length;
  const value =
    scale >= 0 ? make(num * 10n ** BigInt(scale), ONE) : make(num, 10n ** BigInt(-scale));
  return value === undefined ? { ok: false, reason: "too-many-digits" } : { ok: true, value };
}

/**
 * The exact value of a JS number, read by its shortest decimal representation (`String(n)`):
 * `0.1` is exactly 1/10, the number the author wrote, not the binary double nearest to it.
 * NaN and ±Infinity have no exact value and give undefined.
 */
export function fromNumber(value: number): Rational | undefined {
  if (!Number.isFinite(value)) return undefined;
  const parsed = parseDecimal(String(value), true);
  return parsed.ok ? parsed.value : undefined;
}

/** `a + b`, or undefined when the result is too large. */
export function add(a: Rational, b: Rational): Rational | undefined {
  return make(a.num * b.den + b.num * a.den, a.den * b.den);
}

/** `a - b`, or undefined when the result is too large. */
export function subtract(a: Rational, b: Rational): Rational | undefined {
  return make(a.num * b.den - b.num * a.den, a.den * b.den);
}

/** `a * b`, or undefined when the result is too large. */
export function multiply(a: Rational, b: Rational): Rational | undefined {
  return make(a.num * b.num, a.den * b.den);
}

/** `a / b`, or undefined when `b` is zero or the result is too large. */
export function divide(a: Rational, b: Rational): Rational | undefined {
  if (b.num === ZERO) return undefined;
  return make(a.num * b.den, a.den * b.num);
}

/** `-a`; the size never changes, so it always succeeds. */
export function negate(a: Rational): Rational {
  return { num: -a.num, den: a.den };
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`. */
export function compare(a: Rational, b: Rational): -1 | 0 | 1 {
  const left = a.num * b.den;
  const right = b.num * a.den;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** `num/den`, or `num` for integers; for messages and tests, never for arithmetic. */
export function formatRational(a: Rational): string {
  return a.den === ONE ? a.num.toString() : `${a.num.toString()}/${a.den.toString()}`;
}
