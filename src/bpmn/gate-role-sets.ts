/**
 * Which sets of approver roles `distinctRoles` sweeps (src/bpmn/gate-require.ts): pure
 * combinatorics over the role sets of the gates a task can meet. A gate's role lists everyone who
 * may approve it (a user task's candidate groups, users, assignee), so two gates are approvals of
 * distinct roles only when no one role may approve both: a path lacks `n` such gates iff the
 * role sets it passes lie in one maximal family with no `n` pairwise disjoint. Those families
 * are what is swept, one AGENT_GATE_BYPASS sweep each.
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
 * Most steps the search for the families to sweep may take where gates share roles: it is
 * exhaustive, exponential at worst in the gates that share roles with one another; beyond this
 * many steps, `undecidable` (fail closed).
 */
export const MAX_ROLE_STEPS = 1 << 20;

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
 * The roles a gate's role names, for `distinctRoles`: the names it lists separated by commas, a
 * member of any of which may approve the gate, each as {@link roleKey} reads it, and one
 * starting with `=` (a FEEL expression) as {@link ANYONE}. Sorted, distinct; `[]` for none.
 */
export function roleNames(role: string): readonly string[] {
  const keys = role.split(",").map((name) => roleKey(name));
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

/** C(n, k), or `cap + 1` once past `cap`. */
function choose(n: number, k: number, cap: number): number {
  let out = 1;
  for (let i = 1; i <= k; i++) {
    out = (out * (n - k + i)) / i;
    if (out > cap) return cap + 1;
  }
  return Math.round(out);
}

const byIndex = (a: number, b: number): number => a - b;
const indices = (size: number): number[] => Array.from({ length: size }, (_, i) => i);

/** The steps left; a search that spends them, or finds too many families, stops: undecidable. */
interface Budget {
  left: number;
  tooMany?: true;
}

/** Keeps a family found, unless it is one too many to sweep. */
function keep(out: number[][], family: number[], budget: Budget): boolean {
  if (out.push(family) <= MAX_ROLE_SWEEPS) return true;
  budget.tooMany = true;
  return false;
}

/**
 * The maximal families with no two disjoint: the maximal cliques of the graph of sets that share
 * a role (Bron–Kerbosch with a pivot), the one level four-eyes asks for. `undefined` once the
 * budget is spent or past {@link MAX_ROLE_SWEEPS} of them.
 */
function cliques(
  size: number,
  clash: (a: number, b: number) => boolean,
  budget: Budget,
): number[][] | undefined {
  const out: number[][] = [];
  const near = (v: number) => (u: number) => u !== v && clash(u, v);
  const expand = (r: readonly number[], p: number[], x: number[]): boolean => {
    if ((budget.left -= (p.length + x.length + 1) * (p.length + 1)) < 0) return false;
    if (p.length === 0) return x.length > 0 || keep(out, [...r].sort(byIndex), budget);
    const degree = (u: number) => p.filter(near(u)).length;
    const pivot = [...p, ...x].reduce((best, u) => (degree(u) > degree(best) ? u : best));
    for (const v of p.filter((u) => !near(pivot)(u))) {
      if (!expand([...r, v], p.filter(near(v)), x.filter(near(v)))) return false;
      p = p.filter((u) => u !== v);
      x = [...x, v];
    }
    return true;
  };
  return expand([], indices(size), []) ? out : undefined;
}

/**
 * Within one group of sets that share roles (`clash`: whether two share one), by `level`: the
 * maximal families with at most `level` pairwise disjoint, for each level below the most the
 * group holds (the last level is the whole group). Include-or-exclude search: a set left out must
 * stay completable to `level + 1` disjoint ones by those kept, else the family is not maximal.
 * `undefined` once the budget is spent.
 */
function levels(
  size: number,
  clash: (a: number, b: number) => boolean,
  most: number,
  budget: Budget,
): number[][][] | undefined {
  const packs = (pool: readonly number[], need: number): boolean | undefined => {
    if (need <= 0) return true;
    for (let i = 0; i + need <= pool.length; i++) {
      const a = pool[i] ?? 0;
      const rest = pool.slice(i + 1).filter((b) => !clash(a, b));
      if ((budget.left -= rest.length + 1) < 0) return undefined;
      const found = packs(rest, need - 1);
      if (found !== false) return found;
    }
    return false;
  };
  const all = indices(size);
  let top = 1;
  for (; top < most; top++) {
    const more = packs(all, top + 1);
    if (more === undefined) return undefined;
    if (!more) break;
  }
  const out: number[][][] = [];
  for (let level = 0; level < top; level++) {
    if (level === 1) {
      const found = cliques(size, clash, budget);
      if (found === undefined) return undefined;
      out.push(found);
      continue;
    }
    const found: number[][] = [];
    // Whether `x` with `level` disjoint ones of the pool are `level + 1` disjoint sets.
    const blocks = (pool: readonly number[], x: number) => {
      const apart = pool.filter((h) => !clash(h, x));
      return packs(apart, level);
    };
    const walk = (i: number, kept: number[], dropped: readonly number[]): boolean => {
      if (--budget.left < 0) return false;
      if (i === size) return keep(found, kept, budget);
      const inside = blocks(kept, i);
      if (inside === undefined || (!inside && !walk(i + 1, [...kept, i], dropped))) return false;
      // Leaving `i` out shrinks what may block a set left out: only those `i` could complete.
      const reach = [...kept, ...all.slice(i + 1)];
      for (const x of [...dropped.filter((x) => !clash(x, i)), i]) {
        const b = blocks(reach, x);
        if (b !== true) return b === false;
      }
      return walk(i + 1, kept, [...dropped, i]);
    };
    if (!walk(0, [], [])) return undefined;
    out.push(found);
  }
  out.push([all]);
  return out;
}

/** The groups of sets that share roles, by union of the sets that name a role in common. */
function groupsOf(sets: readonly (readonly string[])[]): number[][] {
  const parent = sets.map((_, i) => i);
  const find = (i: number): number => {
    let r = i;
    while (parent[r] !== r) r = parent[r] ?? r;
    return r;
  };
  const first = new Map<string, number>();
  sets.forEach((set, i) => {
    for (const name of set) {
      const j = first.get(name);
      if (j === undefined) first.set(name, i);
      else parent[find(i)] = find(j);
    }
  });
  const groups = new Map<number, number[]>();
  sets.forEach((_, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), i]));
  return [...groups.values()];
}

/**
 * The maximal families of `sets` (role sets, as {@link roleNames} gives them) with no `n`
 * pairwise disjoint, as sorted index lists; or why they are not worked out (more than
 * {@link MAX_ROLE_SWEEPS} of them, or more than {@link MAX_ROLE_STEPS} steps to find them).
 *
 * Sets that share no role with another are plain roles: the families are their (n-1)-subsets.
 * Groups of sets that share roles add up (the most disjoint in a family is the sum over the
 * groups), so a family takes, from each group, a maximal family at some level, the levels
 * summing to n-1. A set naming {@link ANYONE} shares a role with every set: it is in every
 * family when n ≥ 2 (it adds no disjoint set to any nonempty one).
 */
export function roleFamilies(
  sets: readonly (readonly string[])[],
  n: number,
): readonly (readonly number[])[] | string {
  const wild = sets.flatMap((s, i) => (s.includes(ANYONE) ? [i] : []));
  const rest = sets.flatMap((s, i) => (s.includes(ANYONE) ? [] : [i]));
  const groups = groupsOf(rest.map((i) => sets[i] ?? [])).map((g) => g.map((j) => rest[j] ?? 0));
  const plain = groups.filter((g) => g.length === 1).map((g) => g[0] ?? 0);
  const shared = groups.filter((g) => g.length > 1);
  const budget: Budget = { left: MAX_ROLE_STEPS };
  const why = (what: string) =>
    `distinctRoles ${String(n)} over ${String(sets.length)} approver roles needs more than ${what}`;
  const sweeps = why(`${String(MAX_ROLE_SWEEPS)} sweeps of the process`);
  const steps = why(`${String(MAX_ROLE_STEPS)} steps to find the sets of roles to sweep`);
  // Per shared group, its families by level, in the sets' own indices.
  const byLevel: number[][][][] = [];
  for (const group of shared) {
    if ((budget.left -= group.length * group.length) < 0) return steps;
    const names = group.map((i) => new Set(sets[i]));
    const matrix = new Uint8Array(group.length * group.length);
    names.forEach((a, i) => {
      names.forEach((b, j) => {
        matrix[i * group.length + j] = [...a].some((r) => b.has(r)) ? 1 : 0;
      });
    });
    const clash = (a: number, b: number) => matrix[a * group.length + b] === 1;
    const found = levels(group.length, clash, n, budget);
    if (found === undefined) return budget.tooMany === true ? sweeps : steps;
    byLevel.push(found.map((fams) => fams.map((f) => f.map((j) => group[j] ?? 0))));
  }
  const most = plain.length + byLevel.reduce((sum, l) => sum + l.length - 1, 0);
  const all = sets.map((_, i) => i);
  if (Math.max(most, wild.length > 0 ? 1 : 0) < n) return [all];
  // ways[k][r]: how many choices the shared groups k.. have with levels summing to r (capped).
  const cap = MAX_ROLE_SWEEPS + 1;
  const ways: number[][] = [Array.from({ length: n }, (_, r) => (r === 0 ? 1 : 0))];
  for (const l of [...byLevel].reverse()) {
    const next = ways[0] ?? [];
    const row = Array.from({ length: n }, (_, r) =>
      Math.min(
        cap,
        l.reduce((s, fams, j) => (j <= r ? s + fams.length * (next[r - j] ?? 0) : s), 0),
      ),
    );
    ways.unshift(row);
  }
  let total = 0;
  for (let f = 0; f < n && f <= plain.length; f++)
    total += choose(plain.length, f, cap) * (ways[0]?.[n - 1 - f] ?? 0);
  if (total > MAX_ROLE_SWEEPS) return sweeps;
  const out: number[][] = [];
  const always = n >= 2 ? wild : [];
  const pick = (k: number, r: number, taken: readonly number[], free: number): void => {
    if (k === byLevel.length) {
      if (r !== 0) return;
      for (const s of subsets(plain.length, free))
        out.push([...always, ...taken, ...s.map((i) => plain[i] ?? 0)].sort(byIndex));
      return;
    }
    (byLevel[k] ?? []).forEach((fams, j) => {
      if (j > r || (ways[k + 1]?.[r - j] ?? 0) === 0) return;
      for (const fam of fams) pick(k + 1, r - j, [...taken, ...fam], free);
    });
  };
  for (let f = 0; f < n && f <= plain.length; f++) pick(0, n - 1 - f, [], f);
  return out;
}
