// /proc readers: smaps_rollup or full smaps → `kind: "smaps"`, meminfo → `kind: "meminfo"`,
// /proc/<pid>/status → `kind: "status"`, /proc/<pid>/statm → `kind: "statm"`.
//
// Format reference: proc(5) and Documentation/filesystems/proc.rst. Checked against:
// smaps_rollup of Android arm64 (no Pss_Anon/Pss_File split, with SwapPss/Writeback), x86_64 kernel
// ≥ 5.4 (Pss_* split, FilePmdMapped printed one column short), CentOS 8 (4.18); status of 5.10
// (user process and kthreadd, which has no Vm*/Rss* lines at all) and 6.x (Kthread:, untag_mask:);
// meminfo of Jetson TX2 L4T 32.7 (NvMapMemFree/NvMapMemUsed, unitless HugePages_*), Pi Zero 2 W on
// 6.12 (Zswap, SecPageTables), 32-bit OpenWrt without MemAvailable (pre-3.14), and a Pi dump squeezed
// by `tr -s " "`.
//
// Each file is a block of `Key: value` lines. A collector concatenates reads, so a parser emits one
// record per block: a block ends where the next one starts (MemTotal / Name / a VMA header whose
// address does not ascend / a key seen twice), at a line that is not of the format (which is also a
// diagnostic), or at the end. smaps_rollup appeared in kernel 4.14 (JetPack 4 runs 4.9): a full
// smaps is summed over its VMAs instead, giving the same fields.

import { emptyDictionary } from '../util/dictionary';
import { capNumberedLines, type LineCapOptions } from './line-cap';
import {
  diagnostic,
  isBlankLine,
  isCommentLine,
  isNotText,
  type Diagnostic,
  type LineParser,
  type MeminfoRecord,
  type ProcStatusRecord,
  type SmapsRecord,
  type StatmRecord,
} from './records';

// `[^\W\d]`: a letter or `_`.
const KB_LINE_RE = /^([^\W\d][\w()]*):\s*(\d+)\s*kB\s*$/;
const COUNT_LINE_RE = /^([^\W\d][\w()]*):\s*(\d+)\s*$/;
/** A VMA header line, trimmed: start address and the mapping name (none for anonymous memory). */
const VMA_RE = /^([\da-f]+)-[\da-f]+\s+[r-][w-][x-][sp]\s+[\da-f]+\s+[\da-f]+:[\da-f]+\s+\d+(?:\s+(\S.*))?$/i;
/**
 * smaps keys that are not sizes: skipped, not summed, not damage. `Name:` is the Android kernels'
 * line naming an anonymous mapping (`Name:           [anon:libc_malloc]`, before Linux 5.17 put the
 * name on the header line).
 */
const SMAPS_NON_SIZE_RE = /^(?:VmFlags|THPeligible|ProtectionKey|MMUPageSize|KernelPageSize|Name):/;

// ---------------------------------------------------------------------------------------------
// smaps / smaps_rollup

interface SmapsBlock {
  line: number;
  rollup: boolean;
  vmas: number;
  lastStart: bigint | null;
  kb: Record<string, number>;
  /** Keys seen in the current VMA (a repeated key starts a new read of a rollup without header). */
  vmaKeys: Set<string>;
  /** The line that opened the block (the diagnostic's text when no value follows). */
  text: string;
}

function smapsRecord(b: SmapsBlock): SmapsRecord {
  const get = (k: string) => b.kb[k] ?? null;
  return {
    kind: 'smaps',
    line: b.line,
    rollup: b.rollup,
    vmas: b.vmas,
    rssKb: get('Rss'),
    pssKb: get('Pss'),
    anonKb: get('Anonymous'),
    swapKb: get('Swap'),
    kb: b.kb,
  };
}

export function createSmapsParser(options: LineCapOptions = {}): LineParser<SmapsRecord | Diagnostic> {
  let block: SmapsBlock | null = null;
  const flush = (): Array<SmapsRecord | Diagnostic> => {
    const b = block;
    block = null;
    if (!b) return [];
    // VMA headers with no `Key: N kB` line under them: the read was cut — said, not dropped.
    return Object.keys(b.kb).length > 0
      ? [smapsRecord(b)]
      : [diagnostic(b.line, 'smaps mapping without values', b.text)];
  };
  const push = (text: string, line: number): Array<SmapsRecord | Diagnostic> => {
    if (isBlankLine(text) || isCommentLine(text)) return [];
    // Trimmed: a paste indented in a Markdown list or a mail keeps its lines' leading spaces.
    const t = text.trim();
    const vma = VMA_RE.exec(t);
    if (vma) {
      const out: Array<SmapsRecord | Diagnostic> = [];
      const start = BigInt(`0x${vma[1] ?? 0}`);
      const rollup = vma[2] === '[rollup]';
      // Addresses ascend within one smaps read; a rollup is a read of its own.
      if (block && (rollup || block.rollup || (block.lastStart !== null && start <= block.lastStart)))
        out.push(...flush());
      block ??= { line, rollup, vmas: 0, lastStart: null, kb: emptyDictionary(), vmaKeys: new Set(), text };
      block.vmas++;
      block.lastStart = start;
      block.vmaKeys = new Set();
      return out;
    }
    if (SMAPS_NON_SIZE_RE.test(t)) return [];
    const kv = KB_LINE_RE.exec(t);
    if (kv) {
      const out: Array<SmapsRecord | Diagnostic> = [];
      const key = kv[1] ?? '';
      if (block && block.vmaKeys.has(key)) out.push(...flush());
      block ??= { line, rollup: false, vmas: 0, lastStart: null, kb: emptyDictionary(), vmaKeys: new Set(), text };
      block.vmaKeys.add(key);
      block.kb[key] = (block.kb[key] ?? 0) + Number(kv[2]);
      return out;
    }
    return [...flush(), diagnostic(line, 'not an smaps line', text)];
  };
  return capNumberedLines(push, flush, options.maxLineChars);
}

// ---------------------------------------------------------------------------------------------
// meminfo

export function createMeminfoParser(options: LineCapOptions = {}): LineParser<MeminfoRecord | Diagnostic> {
  let block: { line: number; kb: Record<string, number>; counts: Record<string, number> } | null = null;
  const flush = (): MeminfoRecord[] => {
    const b = block;
    block = null;
    if (!b) return [];
    let memAvailableKb: number | null = b.kb.MemAvailable ?? null;
    let estimated = false;
    // Kernels before 3.14 have no MemAvailable: the usual estimate is free + buffers + page cache.
    const { MemFree: free, Buffers: buffers, Cached: cached } = b.kb;
    if (memAvailableKb === null && free !== undefined && buffers !== undefined && cached !== undefined) {
      memAvailableKb = free + buffers + cached;
      estimated = true;
    }
    return [
      {
        kind: 'meminfo',
        line: b.line,
        kb: b.kb,
        counts: b.counts,
        memTotalKb: b.kb.MemTotal ?? null,
        memAvailableKb,
        memAvailableEstimated: estimated,
      },
    ];
  };
  const push = (text: string, line: number): Array<MeminfoRecord | Diagnostic> => {
    if (isBlankLine(text) || isCommentLine(text)) return [];
    const kb = KB_LINE_RE.exec(text);
    const count = kb ? null : COUNT_LINE_RE.exec(text);
    const m = kb ?? count;
    if (!m) return [...flush(), diagnostic(line, 'not a meminfo line', text)];
    const out: MeminfoRecord[] = [];
    const key = m[1] ?? '';
    if (block && (key === 'MemTotal' || key in block.kb || key in block.counts)) out.push(...flush());
    block ??= { line, kb: emptyDictionary(), counts: emptyDictionary() };
    if (kb) block.kb[key] = Number(m[2]);
    else block.counts[key] = Number(m[2]);
    return out;
  };
  return capNumberedLines(push, flush, options.maxLineChars);
}

// ---------------------------------------------------------------------------------------------
// /proc/<pid>/status

/** Keys whose value is `N kB`. */
const STATUS_KB_KEYS = /^(?:Vm\w+|Rss\w+|HugetlbPages)$/;
/** Keys the kernel prints after the Vm* block. */
const STATUS_AFTER_VM_KEYS =
  /^(?:Threads|SigQ|SigPnd|ShdPnd|SigBlk|SigIgn|SigCgt|Cap\w+|NoNewPrivs|Seccomp\w*|Cpus_allowed\w*|Mems_allowed\w*|voluntary_ctxt_switches|nonvoluntary_ctxt_switches)$/;
const STATUS_INT_KEYS = new Set(['Tgid', 'Ngid', 'Pid', 'PPid', 'TracerPid', 'Threads', 'FDSize', 'Kthread']);

interface StatusBlock {
  line: number;
  kb: Record<string, number>;
  fields: Record<string, string>;
}

function statusRecord(b: StatusBlock): ProcStatusRecord {
  const kb = (k: string) => b.kb[k] ?? null;
  const int = (k: string) => (k in b.fields ? Number(b.fields[k]) : null);
  const hasVm = Object.keys(b.kb).some((k) => k.startsWith('Vm'));
  let kernelThread: boolean | null = null;
  if ('Kthread' in b.fields) kernelThread = b.fields.Kthread === '1';
  // Without Kthread: (before 6.x) a kernel thread is recognised by having no Vm* lines; the kernel
  // prints them before Threads:/Sig*/Cap*, so only once one of those was seen (a `head` of the file
  // may stop earlier) can their absence be trusted.
  else if (hasVm) kernelThread = false;
  else if (Object.keys(b.fields).some((k) => STATUS_AFTER_VM_KEYS.test(k))) kernelThread = true;
  return {
    kind: 'status',
    line: b.line,
    name: b.fields.Name ?? null,
    pid: int('Pid'),
    state: b.fields.State ?? null,
    threads: int('Threads'),
    kernelThread,
    vmPeakKb: kb('VmPeak'),
    vmSizeKb: kb('VmSize'),
    vmHwmKb: kb('VmHWM'),
    vmRssKb: kb('VmRSS'),
    rssAnonKb: kb('RssAnon'),
    rssFileKb: kb('RssFile'),
    rssShmemKb: kb('RssShmem'),
    vmDataKb: kb('VmData'),
    vmSwapKb: kb('VmSwap'),
    kb: b.kb,
    fields: b.fields,
  };
}

export function createStatusParser(options: LineCapOptions = {}): LineParser<ProcStatusRecord | Diagnostic> {
  let block: StatusBlock | null = null;
  const flush = (): ProcStatusRecord[] => {
    const b = block;
    block = null;
    return b ? [statusRecord(b)] : [];
  };
  const push = (text: string, line: number): Array<ProcStatusRecord | Diagnostic> => {
    if (isBlankLine(text) || isCommentLine(text)) return [];
    // Every key the kernel prints is a word of 3+ characters ("Pid", "VmRSS"), and every value
    // printable: the task name is escaped (fs/proc/array.c). Control characters or the UTF-8
    // replacement character mean bytes that are not a status file.
    const m = /^([^\W\d]\w+):(.*)$/.exec(text);
    if (!m || isNotText(m[2] ?? '')) return [...flush(), diagnostic(line, 'not a status line', text)];
    const key = m[1] ?? '';
    const value = (m[2] ?? '').trim();
    if (STATUS_KB_KEYS.test(key) && !/^\d+ kB$/.test(value)) return [diagnostic(line, `${key}: expected "N kB"`, text)];
    if (STATUS_INT_KEYS.has(key) && !/^\d+$/.test(value))
      return [diagnostic(line, `${key}: expected a whole number`, text)];
    const out: ProcStatusRecord[] = [];
    if (block && (key === 'Name' || key in block.fields || key in block.kb)) out.push(...flush());
    block ??= { line, kb: emptyDictionary(), fields: emptyDictionary() };
    if (STATUS_KB_KEYS.test(key)) block.kb[key] = Number(value.split(' ')[0]);
    else block.fields[key] = value;
    return out;
  };
  return capNumberedLines(push, flush, options.maxLineChars);
}

// ---------------------------------------------------------------------------------------------
// /proc/<pid>/statm

const STATM_RE = /^\s*(\d+) (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)\s*$/;

/**
 * One statm line (`size resident shared text lib data dt`, in pages). Bytes only with the page size
 * the target reported (`getconf PAGESIZE`): 4 KiB, 16 KiB (Pi 5, Apple) and 64 KiB kernels exist.
 */
export function parseStatmLine(text: string, line: number, pageSizeBytes: number | null): StatmRecord | Diagnostic {
  const m = STATM_RE.exec(text);
  if (!m) return diagnostic(line, 'not a statm line', text);
  const [size, resident, shared, text_, , data] = m.slice(1, 8).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  // Resident pages are mapped pages, and shared ones (file + shmem) resident ones (fs/proc/task_mmu.c
  // task_statm): a line that says otherwise had a digit damaged, and no field of it can be trusted.
  if (resident > size || shared > resident) return diagnostic(line, 'statm: more resident than mapped pages', text);
  const ps = pageSizeBytes !== null && Number.isFinite(pageSizeBytes) && pageSizeBytes > 0 ? pageSizeBytes : null;
  const bytes = (p: number) => (ps === null ? null : p * ps);
  return {
    kind: 'statm',
    line,
    pageSizeBytes: ps,
    sizePages: size,
    residentPages: resident,
    sharedPages: shared,
    textPages: text_,
    dataPages: data,
    sizeBytes: bytes(size),
    residentBytes: bytes(resident),
    sharedBytes: bytes(shared),
    textBytes: bytes(text_),
    dataBytes: bytes(data),
  };
}

export function createStatmParser(
  options: { pageSizeBytes?: number } & LineCapOptions = {},
): LineParser<StatmRecord | Diagnostic> {
  return capNumberedLines(
    (text, line) =>
      isBlankLine(text) || isCommentLine(text) ? [] : [parseStatmLine(text, line, options.pageSizeBytes ?? null)],
    () => [],
    options.maxLineChars,
  );
}
