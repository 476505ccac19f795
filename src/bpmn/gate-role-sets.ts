/**
 * Which sets of approver names `distinctRoles` sweeps (src/bpmn/gate-require.ts): pure
 * combinatorics over the name sets of the gates a task can meet. A gate's set lists everyone who
 * may approve it (its declared role, a user task's candidate groups, users, assignee), so two
 * gates are approvals of distinct roles only when no one name may approve both: a path lacks `n`
 * such gates iff the sets it passes lie in one maximal family with no `n` pairwise disjoint.
 * Those families are what is swept, one AGENT_GATE_BYPASS sweep each. Every search here runs on
 * an explicit stack and pays for each pass over its input before making it: an input however
 * large gets a verdict, or `undecidable` with the reason, never a stack overflow.
 */

/**
 * Most sets of roles `distinctRoles` tries, one O(V+E) sweep each: finding a path with fewest
 * distinct roles is NP-hard in general (a minimum-label path), so beyond this many the check
 * fails closed, as `undecidable`. With `distinctRoles: n` and `r` roles reachable from the task,
 * no gate sharing one, the sweeps are C(r, n-1): two roles of 13 take 13 sweeps, three of 40
 * take 780; two of up to 4096 roles, three of 91 and four of 30 are decided (docs/gate-paths.md).
 */
export const MAX_ROLE_SWEEPS = 4096;

/**
 * Most steps the search for the families to sweep may take, reading the sets included: it is
 * exhaustive, exponential at worst in the gates that share roles with one another; beyond this
 * many steps, `undecidable` (fail closed). A step is one comparison or one element copied (each
 * charge covers its work up to a small constant), paid before the work: a fraction of a second
 * at most, and about as many inputs are decided as when coarser steps went uncounted.
 */
export const MAX_ROLE_STEPS = 1 << 22;

/** The name of a role that may be anyone: a FEEL expression, known only when the process runs. */
export const ANYONE = "=";

/**
 * The key two approver roles count as one under, for `distinctRoles`: a reviewer reads
 * `credit-officer`, `Credit-Officer` and `credit\u200B-officer` as one role, so a path through
 * them must not pass as separation of duties. Compared after NFKC, without default-ignorable
 * characters (zero-width spaces and joiners, soft hyphens), case-folded, with runs of white space
 * as one space. Stricter only: `roles` still names each role exactly.
 */
export function roleKey(role: string): string {
  return role
    .normalize("NFKC")
    .replace(/\p{Default_Ignorable_Code_Point}/gu, "")
    .toLowerCase()
    .replace(/\s+/gu, " ")
    .trim();
}

/**
 * The names who may approve a gate, for `distinctRoles`: each of its approvers (one name each,
 * commas and all: `Credit Officer, Level 2` is one role) as {@link roleKey} reads it, and one
 * starting with `=` (a FEEL expression) as {@link ANYONE}. Sorted, distinct; `[]` for none.
 */
export function roleNames(approvers: readonly string[]): readonly string[] {
  const keys = approvers.map((name) => roleKey(name));
  const names = keys.map((k) => (k.startsWith("=") ? ANYONE : k)).filter((k) => k !== "");
  return [...new Set(names)].sort();
}

/** The k-subsets of `0..n-1`, in lexicographic order, as index arrays (iteratively). */
function* subsets(n: number, k: number): Generator<readonly number[]> {
  if (k > n) return;
  const pick = Array.from({ length: k }, (_, i) => i);
  for (;;) {
    yield pick;
    let i = k - 1;
    while (i >= 0 && pick[i] === n - k + i) i--;
    if (i < 0) return;
    pick[i] = (pick[i] ?? 0) + 1;
    for (let j = i + 1; j < k; j++) pick[j] = (pick[j - 1] ?? 0) + 1;
  }
}

/** C(n, k), or `cap + 1` once past `cap`; by the smaller of k and n-k, so in few steps. */
function choose(n: number, k: number, cap: number): number {
  if (k > n) return 0;
  const m = Math.min(k, n - k);
  let out = 1;
  for (let i = 1; i <= m; i++) {
    out = (out * (n - m + i)) / i;
    if (out > cap) return cap + 1;
  }
  return Math.round(out);
}

const byIndex = (a: number, b: number): number => a - b;
const indices = (size: number): number[] => Array.from({ length: size }, (_, i) => i);

/** Whether sets `a` and `b` (indices into a group) share a name. */
type Clash = (a: number, b: number) => boolean;

/** The steps left; a search that spends them, or finds too many families, stops: undecidable. */
interface Budget {
  left: number;
  tooMany?: true;
}

/** Pays `cost` steps for work about to be done; false once the budget is spent. */
const spend = (budget: Budget, cost: number): boolean => (budget.left -= cost) >= 0;

/** Keeps a family found, unless it is one too many to sweep. */
function keep(out: number[][], family: number[], budget: Budget): boolean {
  if (out.push(family) <= MAX_ROLE_SWEEPS) return true;
  budget.tooMany = true;
  return false;
}

/** Whether `pool` holds `need` pairwise disjoint sets: depth first; `undefined`: budget spent. */
function packs(pool: readonly number[], need: number, clash: Clash, budget: Budget) {
  if (need <= 0) return true;
  const stack: { readonly pool: readonly number[]; i: number }[] = [{ pool, i: 0 }];
  for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
    const left = need - stack.length; // still to find once this frame picks one
    if (top.i + left >= top.pool.length) stack.pop();
    else if (left === 0) return true;
    else {
      const a = top.pool[top.i++] ?? 0;
      if (!spend(budget, top.pool.length - top.i + 1)) return undefined;
      stack.push({ pool: top.pool.slice(top.i).filter((b) => !clash(a, b)), i: 0 });
    }
  }
  return false;
}

/**
 * The maximal families with no two disjoint: the maximal cliques of the graph of sets that share
 * a name (Bron–Kerbosch with a pivot), the one level four-eyes asks for. `undefined` once the
 * budget is spent or past {@link MAX_ROLE_SWEEPS} of them.
 */
function cliques(size: number, clash: Clash, budget: Budget): number[][] | undefined {
  const out: number[][] = [];
  const stack: { r: number[]; p: number[]; x: number[]; todo: number[]; i: number }[] = [];
  const open = (r: number[], p: number[], x: number[]): boolean => {
    if (!spend(budget, (p.length + x.length + 1) * (p.length + 1) + r.length)) return false;
    if (p.length === 0) return x.length > 0 || keep(out, r.sort(byIndex), budget);
    let pivot = p[0] ?? 0;
    let best = -1;
    for (const u of [...p, ...x]) {
      const degree = p.filter((w) => w !== u && clash(u, w)).length;
      if (degree > best) [pivot, best] = [u, degree];
    }
    stack.push({ r, p, x, todo: p.filter((u) => u === pivot || !clash(pivot, u)), i: 0 });
    return true;
  };
  if (!open([], indices(size), [])) return undefined;
  for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
    const v = top.todo[top.i++];
    if (v === undefined) {
      stack.pop();
      continue;
    }
    const near = (u: number) => u !== v && clash(u, v);
    const [p, x] = [top.p.filter(near), top.x.filter(near)];
    top.p = top.p.filter((u) => u !== v);
    top.x.push(v);
    if (!open([...top.r, v], p, x)) return undefined;
  }
  return out;
}

/**
 * The maximal families with at most `level` (2 or more) pairwise disjoint: an include-or-exclude
 * search over the sets in order, on an explicit stack. A set left out must stay completable to
 * `level + 1` disjoint ones by those kept and those still to come, else the family is not
 * maximal. `undefined` once the budget is spent or past {@link MAX_ROLE_SWEEPS} families.
 */
function walk(size: number, clash: Clash, level: number, budget: Budget) {
  const found: number[][] = [];
  const kept: number[] = [];
  const dropped: number[] = [];
  // Whether `x` with `level` disjoint sets of `pool` are `level + 1` disjoint sets.
  const blocks = (pool: readonly number[], x: number) =>
    spend(budget, pool.length)
      ? packs(
          pool.filter((h) => !clash(h, x)),
          level,
          clash,
          budget,
        )
      : undefined;
  const stack: { readonly i: number; phase: "in" | "out" | "done"; pushed: boolean }[] = [];
  stack.push({ i: 0, phase: "in", pushed: false });
  for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
    const { i } = top;
    if (top.phase === "in") {
      if (!spend(budget, 1 + kept.length)) return undefined;
      if (i === size) {
        if (!keep(found, [...kept], budget)) return undefined;
        stack.pop();
        continue;
      }
      top.phase = "out";
      const inside = blocks(kept, i);
      if (inside === undefined) return undefined;
      if (!inside) {
        kept.push(i);
        top.pushed = true;
        stack.push({ i: i + 1, phase: "in", pushed: false });
        continue;
      }
    }
    if (top.phase === "out") {
      if (top.pushed) kept.pop();
      top.phase = "done";
      // Leaving `i` out shrinks what may block a set left out: only those `i` could complete.
      if (!spend(budget, size + dropped.length)) return undefined;
      const reach = [...kept, ...indices(size - i - 1).map((j) => i + 1 + j)];
      let open = true;
      for (const x of [...dropped.filter((x) => !clash(x, i)), i]) {
        const b = blocks(reach, x);
        if (b === undefined) return undefined;
        open = b;
        if (!open) break;
      }
      top.pushed = open;
      if (open) {
        dropped.push(i);
        stack.push({ i: i + 1, phase: "in", pushed: false });
        continue;
      }
    }
    if (top.pushed) dropped.pop();
    stack.pop();
  }
  return found;
}

/**
 * Within one group of sets that share names, by level: the maximal families with at most `level`
 * pairwise disjoint, for each level below the most the group holds (capped at `most`; the last
 * level is the whole group), in the sets' own indices. `undefined` once the budget is spent.
 */
function groupLevels(
  sets: readonly (readonly string[])[],
  group: readonly number[],
  most: number,
  budget: Budget,
) {
  if (
    !spend(
      budget,
      group.reduce((sum, s) => sum + (sets[s]?.length ?? 0), group.length),
    )
  )
    return undefined;
  // Per name, the sets of the group that list it.
  const holders = new Map<string, number[]>();
  group.forEach((s, i) => {
    for (const name of sets[s] ?? []) {
      const list = holders.get(name);
      if (list === undefined) holders.set(name, [i]);
      else list.push(i);
    }
  });
  // A name every set lists: no two are disjoint, so the group is one family at level 1.
  if ([...holders.values()].some((h) => h.length === group.length)) return [[[]], [[...group]]];
  const cost = [...holders.values()].reduce((sum, h) => sum + h.length * h.length, 0);
  if (!spend(budget, group.length * group.length + cost)) return undefined;
  const size = group.length;
  const matrix = new Uint8Array(size * size);
  for (const h of holders.values()) for (const a of h) for (const b of h) matrix[a * size + b] = 1;
  const clash = (a: number, b: number) => matrix[a * size + b] === 1;
  let top = 1;
  for (; top < most; top++) {
    const more = packs(indices(size), top + 1, clash, budget);
    if (more === undefined) return undefined;
    if (!more) break;
  }
  // Level 0: the one family with no set (any set is one disjoint set).
  const out: number[][][] = [[[]]];
  for (let level = 1; level < top; level++) {
    const found = level === 1 ? cliques(size, clash, budget) : walk(size, clash, level, budget);
    if (found === undefined) return undefined;
    out.push(found.map((f) => f.map((j) => group[j] ?? 0)));
  }
  out.push([[...group]]);
  return out;
}

/**
 * The groups of the sets `members` (indices into `sets`) that share names, in the order of their
 * first member: union by size with path halving, so near-linear in the names, never quadratic.
 */
function groupsOf(sets: readonly (readonly string[])[], members: readonly number[]): number[][] {
  const parent = Int32Array.from(members, (_, i) => i);
  const size = new Int32Array(members.length).fill(1);
  const find = (i: number): number => {
    let x = i;
    // Path halving: each node passed points on to its grandparent, so paths stay short.
    while (parent[x] !== x) {
      const up = parent[x] ?? x;
      x = parent[x] = parent[up] ?? up;
    }
    return x;
  };
  const first = new Map<string, number>();
  members.forEach((s, i) => {
    for (const name of sets[s] ?? []) {
      const j = first.get(name);
      if (j === undefined) {
        first.set(name, i);
        continue;
      }
      let [a, b] = [find(i), find(j)];
      if (a === b) continue;
      if ((size[a] ?? 0) < (size[b] ?? 0)) [a, b] = [b, a];
      parent[b] = a;
      size[a] = (size[a] ?? 0) + (size[b] ?? 0);
    }
  });
  const groups = new Map<number, number[]>();
  members.forEach((s, i) => {
    const root = find(i);
    const group = groups.get(root);
    if (group === undefined) groups.set(root, [s]);
    else group.push(s);
  });
  return [...groups.values()];
}

/**
 * The ways the shared groups take levels summing to `r`, each as the families it takes from the
 * groups whose level is not 0 (level 0's one family is empty): in the order a depth-first walk
 * over the groups, levels ascending from 0, meets them, on an explicit stack. `caps[k]`: group
 * k's highest level (every level up to it has a family); `suffix[k]`: the caps from k on,
 * summed. Stops, the budget spent, when a step cannot be paid.
 */
function* spreads(
  byLevel: readonly (readonly (readonly number[])[])[][],
  caps: readonly number[],
  suffix: readonly number[],
  r: number,
  budget: Budget,
): Generator<readonly (readonly number[])[]> {
  if (r === 0) {
    yield [];
    return;
  }
  // Groups with level 0 come first in the walk, so the next group given a level is the last
  // that can still give the rest: from it down to `lo` (`suffix` never grows, bisected).
  const start = (lo: number, r: number) => {
    let [a, b] = [lo - 1, caps.length - 1];
    while (a < b) {
      const mid = Math.ceil((a + b) / 2);
      if ((suffix[mid] ?? 0) >= r) a = mid;
      else b = mid - 1;
    }
    return { lo, r, g: a, j: Math.max(1, r - (suffix[a + 1] ?? 0)), fi: 0 };
  };
  const advance = (f: ReturnType<typeof start>): void => {
    if (++f.fi < (byLevel[f.g]?.[f.j]?.length ?? 0)) return;
    f.fi = 0;
    if (++f.j <= Math.min(caps[f.g] ?? 0, f.r)) return;
    f.g--;
    f.j = Math.max(1, f.r - (suffix[f.g + 1] ?? 0));
  };
  const taken: (readonly number[])[] = [];
  const stack = [start(0, r)];
  for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
    if (!spend(budget, 1 + Math.log2(caps.length + 1))) return;
    if (top.g < top.lo) {
      stack.pop();
      const parent = stack.at(-1);
      if (parent !== undefined) advance(parent);
      continue;
    }
    const family = byLevel[top.g]?.[top.j]?.[top.fi];
    if (family !== undefined) taken[stack.length - 1] = family;
    if (family !== undefined && top.r > top.j) stack.push(start(top.g + 1, top.r - top.j));
    else {
      if (family !== undefined) yield taken.slice(0, stack.length);
      advance(top);
    }
  }
}

/**
 * The maximal families of `sets` (name sets, as {@link roleNames} gives them) with no `n`
 * pairwise disjoint, as sorted index lists; or why they are not worked out (more than
 * {@link MAX_ROLE_SWEEPS} of them, or more than {@link MAX_ROLE_STEPS} steps to find them).
 *
 * Sets that share no name with another are plain roles: the families are their (n-1)-subsets.
 * Groups of sets that share names add up (the most disjoint in a family is the sum over the
 * groups), so a family takes, from each group, a maximal family at some level, the levels
 * summing to n-1. A set naming {@link ANYONE} shares a name with every set: it is in every
 * family when n ≥ 2 (it adds no disjoint set to any nonempty one).
 */
export function roleFamilies(
  sets: readonly (readonly string[])[],
  n: number,
): readonly (readonly number[])[] | string {
  const budget: Budget = { left: MAX_ROLE_STEPS };
  const why = (what: string) =>
    `distinctRoles ${String(n)} over ${String(sets.length)} approver roles needs more than ${what}`;
  const sweeps = why(`${String(MAX_ROLE_SWEEPS)} sweeps of the process`);
  const steps = why(`${String(MAX_ROLE_STEPS)} steps to find the sets of roles to sweep`);
  // Two passes over the names (the split, the groups) and one over the sets, paid up front.
  const names = sets.reduce((sum, s) => sum + s.length, 0);
  if (!spend(budget, 2 * names + 3 * sets.length)) return steps;
  const wild: number[] = [];
  const rest: number[] = [];
  sets.forEach((s, i) => (s.includes(ANYONE) ? wild : rest).push(i));
  const plain: number[] = [];
  const byLevel: number[][][][] = [];
  for (const group of groupsOf(sets, rest)) {
    if (group.length === 1) {
      plain.push(group[0] ?? 0);
      continue;
    }
    const found = groupLevels(sets, group, n, budget);
    if (found === undefined) return budget.tooMany === true ? sweeps : steps;
    byLevel.push(found);
  }
  const caps = byLevel.map((l) => Math.min(l.length - 1, n - 1));
  const most = byLevel.reduce((sum, l) => sum + l.length - 1, plain.length);
  if (Math.max(most, wild.length > 0 ? 1 : 0) < n) return [sets.map((_, i) => i)];
  // ways[r]: how many choices the shared groups have with levels summing to r (capped).
  if (!spend(budget, byLevel.length + caps.reduce((sum, c) => sum + n * (c + 1), n))) return steps;
  const cap = MAX_ROLE_SWEEPS + 1;
  let ways: number[] = indices(n).map((r) => (r === 0 ? 1 : 0));
  byLevel.forEach((l, k) => {
    const before = ways;
    ways = before.map((_, r) => {
      let sum = 0;
      for (let j = 0; j <= Math.min(caps[k] ?? 0, r); j++)
        sum += (l[j]?.length ?? 0) * (before[r - j] ?? 0);
      return Math.min(cap, sum);
    });
  });
  let total = 0;
  for (let f = 0; f < n && f <= plain.length && total <= MAX_ROLE_SWEEPS; f++)
    total += choose(plain.length, f, cap) * (ways[n - 1 - f] ?? 0);
  if (total > MAX_ROLE_SWEEPS) return sweeps;
  const suffix = [...caps, 0];
  for (let k = caps.length - 1; k >= 0; k--) suffix[k] = (caps[k] ?? 0) + (suffix[k + 1] ?? 0);
  const out: number[][] = [];
  const always = n >= 2 ? wild : [];
  for (let f = 0; f < n && f <= plain.length; f++) {
    if ((ways[n - 1 - f] ?? 0) === 0) continue;
    for (const taken of spreads(byLevel, caps, suffix, n - 1 - f, budget)) {
      for (const s of subsets(plain.length, f)) {
        const family = [...always, ...taken.flat(), ...s.map((i) => plain[i] ?? 0)];
        if (!spend(budget, family.length)) return steps;
        out.push(family.sort(byIndex));
      }
    }
    if (budget.left < 0) return steps;
  }
  return out;
}
