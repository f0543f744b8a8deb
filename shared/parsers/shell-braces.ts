// bash's brace expansion of one word, for the paths a pasted command names: `cat
// /sys/class/hwmon/hwmon2/{in0_input,in1_input}` prints the files' contents one after the other in
// the order the braces list them (unlike a glob, whose files a reader cannot know), so each value
// can be given its file. Pure.

/** Words one expansion may give at most (a pasted command lists a few files). */
const MAX_WORDS = 64;
/** The first brace group without a brace inside it. */
const GROUP_RE = /\{([^{}]*)\}/;
const RANGE_RE = /^(-?\d{1,6})\.\.(-?\d{1,6})$/;

/** The items of one group: `a,b,c` (a list needs a comma) or `N..M` (a range, either direction); null for neither. */
function groupItems(body: string): string[] | null {
  const range = RANGE_RE.exec(body);
  if (range) {
    const from = Number(range[1]);
    const to = Number(range[2]);
    if (Math.abs(to - from) >= MAX_WORDS) return null;
    const step = from <= to ? 1 : -1;
    const items: string[] = [];
    for (let n = from; n !== to + step; n += step) items.push(String(n));
    return items;
  }
  return body.includes(',') ? body.split(',') : null;
}

/** Braces that pair up and do not nest (bash expands nested groups from the outside in: not done here). */
function flat(word: string): boolean {
  let open = false;
  for (const c of word) {
    if (c === '{') {
      if (open) return false;
      open = true;
    } else if (c === '}') {
      if (!open) return false;
      open = false;
    }
  }
  return !open;
}

/**
 * The words `word` expands to, in bash's order (the leftmost group varies slowest): `a{1,2}b{x,y}` →
 * a1bx a1by a2bx a2by. Null when the word has no group, a group bash would leave as it is (`{}`, `{a}`),
 * nested groups, or more than MAX_WORDS words.
 */
export function expandBraces(word: string): string[] | null {
  if (!GROUP_RE.test(word) || !flat(word)) return null;
  let words = [word];
  for (let round = 0; round < MAX_WORDS && words.some((w) => GROUP_RE.test(w)); round++) {
    const next: string[] = [];
    for (const w of words) {
      const m = GROUP_RE.exec(w);
      if (!m) {
        next.push(w);
        continue;
      }
      const items = groupItems(m[1] ?? '');
      if (!items) return null;
      const head = w.slice(0, m.index);
      const tail = w.slice(m.index + m[0].length);
      for (const item of items) next.push(head + item + tail);
      if (next.length > MAX_WORDS) return null;
    }
    words = next;
  }
  return words.some((w) => /[{}]/.test(w)) ? null : words;
}
