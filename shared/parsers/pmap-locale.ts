// What procps-ng's pmap prints outside the C locale, read by its shape rather than its words.
//
// procps-ng translates pmap's headers, footers and its names for mappings without a file
// (gettext, the procps-ng catalogs; Debian 12's procps 4.0.2 ships de, es, fr, ka, ko, pl, pt_BR,
// ro, sv, uk, vi and zh_CN). A log captured in a board's own language then reads, for `pmap -x`:
//   `Adresse            kByte     RSS   Dirty Modus Zuordnung` … `kB gesamt          36768   35272   33056`
//   `주  소          Kbytes     RSS   Dirty 모  드 매  핑` (words with spaces inside)
//   `00007f9fd8375000   32772 …   rw---   [ anôn ]`, `[ анон ]`, `[ vô danh ]`, `[ pile  ]` (the stack)
// plain `pmap`'s footer ` gesamt 36768K`, ` totalt 36768 k`, ` загалом 36768 К` (Cyrillic); `-d`'s
// `mappat: 36768 k    skrivbart/privat: … k    delat: … k`; `-X`'s first five column names (the
// smaps field names after them are the kernel's, never translated). Under ka_GE pmap pads each
// address to the byte width of its translated header word: 27 hex digits, 24 for -d's offset.
// Captures of each: test/fixtures/pmap/procps-ng-4.0.2-locales.
//
// Words are not matched against a list of translations (which would miss the next catalog), but
// by place and shape: the line after `PID:` is the header; the columns of -x and -d are procps'
// fixed order, told by the rows (as for `-q`, see pmap-parser.ts quietLayout); -X's numeric columns
// start at the kernel's `Size`; a footer is words without digits followed by the totals.

/**
 * A mapping procps names itself, in any language: `  [ anon ]` (every mapping without a file path:
 * heap, anonymous mmap) and `  [ stack ]`, printed with spaces inside the brackets, unlike the
 * kernel's own names (`[heap]`, `[vdso]`). `[ shmid=0x… ]` is System V shared memory: not anonymous.
 */
export function isProcpsAnonName(mapping: string): boolean {
  if (!mapping.startsWith('[ ') || !mapping.endsWith(' ]')) return false;
  const inner = mapping.slice(2, -2).trim();
  return inner !== '' && !inner.includes(']') && !inner.startsWith('shmid=');
}

/** An address or offset padded past 16 hex digits (ka_GE) back to 16; others as they are. */
export function unpadHex(text: string): string {
  return text.length > 16 && /^0+$/.test(text.slice(0, text.length - 16)) ? text.slice(-16) : text;
}

/** Tokens of a footer's leading words: no digit in any (the totals follow them). */
const WORDS_RE = /^\D+$/u;

/**
 * `-x`'s footer in any language: words, then one total per column (`-` where none), e.g.
 * `kB gesamt 36768 35272 33056`, `총계  kB 36768 …`, `სულ კბ 36768 …`. The totals, or null when the line
 * is not one.
 */
export function localizedTableTotals(t: string, columns: number): string[] | null {
  const tokens = t.split(/\s+/);
  const first = tokens.findIndex((w) => /^(?:\d+|-)$/.test(w));
  if (first < 1 || !WORDS_RE.test(tokens.slice(0, first).join(' '))) return null;
  const values = tokens.slice(first);
  return values.length === columns && values.every((v) => /^(?:\d+|-)$/.test(v)) ? values : null;
}

/**
 * Plain `pmap`'s footer in any language: words, then the total with its unit letter right after it or
 * one space away (` gesamt 36768K`, ` totalt 36768 k`, ` загалом 36768 К`, ` სულ 36768კ`). The total
 * in kB, or null.
 */
export function localizedPlainTotal(t: string): number | null {
  const tokens = t.split(/\s+/);
  let size = tokens.pop() ?? '';
  if (/^\D$/u.test(size)) size = (tokens.pop() ?? '') + size;
  const m = /^(\d+)\D$/u.exec(size);
  const words = tokens.join(' ');
  return m && tokens.length > 0 && WORDS_RE.test(words) && !words.includes(':') ? Number(m[1]) : null;
}

/**
 * `-d`'s footer in any language: three `<words>: <N><unit>` (mapped, writeable/private, shared),
 * e.g. `mapeado: 36768K    escrevível/privado: …K    compartilhado: …K`. Mapped kB, or null.
 */
export function localizedMappedTotal(t: string): number | null {
  const sizes = [...t.matchAll(/:\s*(\d+)\s?[^\s\d:]?(?=\s|$)/gu)];
  return sizes.length === 3 ? Number(sizes[0]?.[1]) : null;
}

/**
 * `-X`/`-XX`'s header in any language: the smaps field names from the kernel's `Size` on (its first
 * field since smaps exists), `VmFlags` included; what follows the last of them is the translated
 * "Mapping" and is left to the caller to cut (it can be several words: `매  핑`, `Ánh xạ`). Null
 * when the line has no `Size` with an `Rss` after it.
 */
export function localizedSmapsNames(t: string): string[] | null {
  const tokens = t.split(/\s+/);
  const at = tokens.indexOf('Size');
  if (at < 1 || !tokens.includes('Rss', at)) return null;
  return tokens.slice(at);
}
