// The records `kvscope parse` prints, one JSON object per record (docs/DESIGN.md, "parse NDJSON records").
// Field names are a stable contract: add fields, never rename. Every record has `kind` and `line`
// (1-based number of the input line the record starts on). Units are in the names (…Bytes, …Kb,
// …MHz, …C, …Mw, …Ms); a value the tool did not print is `null`, never 0.
//
// Conventions shared by every parser in this folder:
// - A parser never throws. A line it cannot read becomes a Diagnostic that keeps the line's text.
// - Lines whose first non-blank character is `#` are comments (perf's `-o` header, provenance notes
//   kept in fixtures) and yield nothing — except where a format gives them meaning (perf metric
//   continuation lines, `# cat …` root prompts in thermal dumps), which the parser says.
// - Blank lines yield nothing.
// - Logs (llama-log, llama-bench, thermal dumps) are mostly prose: there only a line that looks like
//   a known record but cannot be read is a diagnostic; other lines are skipped.

export interface Diagnostic {
  kind: 'diagnostic';
  line: number;
  reason: string;
  /** The input line exactly as it arrived. */
  text: string;
}

// ---------------------------------------------------------------------------------------------
// tegrastats

export interface TegrastatsCpu {
  loadPct: number | null;
  freqMHz: number | null;
}

export interface TegrastatsEngine {
  /** false for `NVDEC off`. */
  on: boolean;
  loadPct: number | null;
  /** Highest of `freqsMHz` when the tool printed several (one per GPC/instance). */
  freqMHz: number | null;
  freqsMHz: number[] | null;
}

export interface TegrastatsRail {
  cur: number;
  avg: number | null;
  /** Third value of JetPack 7 (`cur/avg/max`). */
  max?: number;
}

export interface TegrastatsRecord {
  kind: 'tegrastats';
  line: number;
  /** `MM-DD-YYYY HH:MM:SS` as printed (JetPack 5+), board-local time. */
  timestamp: string | null;
  /** The same time as ISO 8601 without a zone (tegrastats prints none). */
  localTimeIso: string | null;
  ramUsedBytes: number | null;
  ramTotalBytes: number | null;
  /** Largest free block: `lfb NxZ` → count N of blocks of Z bytes. */
  ramLfbBlocks: number | null;
  ramLfbBlockBytes: number | null;
  swapUsedBytes: number | null;
  swapTotalBytes: number | null;
  swapCachedBytes: number | null;
  iramUsedBytes: number | null;
  iramTotalBytes: number | null;
  iramLfbBytes: number | null;
  /** One entry per core; null = the core is off (or its entry unreadable, then listed in `unknown`). Empty when the line has no CPU list. */
  cpus: Array<TegrastatsCpu | null>;
  gpuLoadPct: number | null;
  gpuFreqMHz: number | null;
  /** Per-GPC clocks of `GR3D_FREQ N%@[F,F]`. */
  gpuFreqsMHz: number[] | null;
  emcLoadPct: number | null;
  emcFreqMHz: number | null;
  mtsFgPct: number | null;
  mtsBgPct: number | null;
  edpLimitMHz: number | null;
  /** Sensor-off readings (`-256C`) are not here; their names are in `sensorsOff`. */
  tempsC: Record<string, number>;
  /** Second value of JetPack 7 `cpu@52.9C/53.1C` (taken as the running maximum). */
  tempsMaxC: Record<string, number>;
  sensorsOff: string[];
  /** mW. A rail printed twice (`NC`) keeps its first name; the next gets `NC#2`, `NC#3`… */
  railsMw: Record<string, TegrastatsRail>;
  /** APE, VIC, NVENC, NVDEC, NVJPG, OFA, NVDLA0, PVA0, AVP, MSENC… (`_FREQ` suffix dropped). */
  engines: Record<string, TegrastatsEngine>;
  /** Tokens the parser could not read, verbatim (the first MAX_UNKNOWN_TOKENS of tegrastats-parser.ts). */
  unknown: string[];
  /** How many tokens could not be read (`unknown` lists at most the first 32). */
  unknownCount: number;
  /** The line does not hold a whole record (starts mid-record or ends early). */
  partial: boolean;
}

// ---------------------------------------------------------------------------------------------
// perf stat

export type PerfStatus = 'ok' | 'not-supported' | 'not-counted';

export interface PerfRecord {
  kind: 'perf';
  line: number;
  /** Interval mode (`-I`): seconds since start. Null otherwise (and for summary rows). */
  tSec: number | null;
  event: string;
  value: number | null;
  status: PerfStatus;
  /** `msec`, `Joules`… null when perf printed none (plain counts). */
  unit: string | null;
  /** Share of the time the counter ran (multiplexing). Null when not printed (human output omits 100%). */
  runPct: number | null;
  runTimeNs: number | null;
  metricValue: number | null;
  metricUnit: string | null;
  /** `( +- 0.14% )` / CSV variance with `-r`. */
  stddevPct: number | null;
  /** Aggregation column of `-A` / `--per-core` … (`CPU0`, `S0-D0-C1`). */
  aggr: string | null;
  /** A `--summary` row (`summary,` prefix, or a row without time after interval rows). */
  summary: boolean;
}

/** `N seconds time elapsed` / `N seconds user` / `N seconds sys`: a summary, not a counter. */
export interface PerfElapsedRecord {
  kind: 'perf-elapsed';
  line: number;
  clock: 'elapsed' | 'user' | 'sys';
  seconds: number;
  stddevPct: number | null;
}

/** ` Performance counter stats for 'sleep 1' (5 runs):` */
export interface PerfHeaderRecord {
  kind: 'perf-header';
  line: number;
  target: string;
  runs: number | null;
}

/** A derived metric printed without a counter: `--topdown` CSV tables, `#`-only continuation lines. */
export interface PerfMetricRecord {
  kind: 'perf-metric';
  line: number;
  tSec: number | null;
  name: string;
  value: number | null;
  unit: string | null;
  /** The aggregation of a `--metric-only` / `--topdown` table row (`S0-C0`, `CPU3`); absent when none. */
  aggr?: string;
}

// ---------------------------------------------------------------------------------------------
// pmap -x

export interface PmapMapping {
  address: string;
  sizeKb: number;
  rssKb: number | null;
  pssKb: number | null;
  dirtyKb: number | null;
  swapKb: number | null;
  anonKb: number | null;
  mode: string | null;
  mapping: string;
  anonymous: boolean;
}

export interface PmapRecord {
  kind: 'pmap';
  line: number;
  pid: number | null;
  command: string | null;
  /** Virtual size (Kbytes column), from the footer when printed, else summed. */
  totalKb: number;
  /** Resident (procps RSS); null when the tool prints none (busybox/toybox print PSS). */
  rssKb: number | null;
  pssKb: number | null;
  dirtyKb: number | null;
  swapKb: number | null;
  /** procps 3.2 `Anon` column when it has numbers, else resident kB of anonymous mappings. */
  anonKb: number | null;
  anonFrom: 'column' | 'mappings' | null;
  /** Largest resident anonymous mapping (RSS, else PSS, else Kbytes when nothing resident is printed). */
  largestAnonKb: number | null;
  /** Number of mappings listed. */
  mappings: number;
  /** False when the output ended before its `total` footer. */
  complete: boolean;
  /** Only with the `listMappings` option. */
  mappingsList?: PmapMapping[];
}

// ---------------------------------------------------------------------------------------------
// /proc

export interface SmapsRecord {
  kind: 'smaps';
  line: number;
  /** smaps_rollup (one `[rollup]` pseudo-VMA) or a sum over a full smaps. */
  rollup: boolean;
  vmas: number;
  rssKb: number | null;
  pssKb: number | null;
  /** `Anonymous:` */
  anonKb: number | null;
  swapKb: number | null;
  /** Every `Key: N kB` line, summed over VMAs. */
  kb: Record<string, number>;
}

export interface MeminfoRecord {
  kind: 'meminfo';
  line: number;
  /** Every `Key: N kB` line. */
  kb: Record<string, number>;
  /** Keys without a unit (HugePages_Total…): page counts. */
  counts: Record<string, number>;
  memTotalKb: number | null;
  /** MemAvailable, or MemFree+Buffers+Cached on kernels before 3.14 (then `memAvailableEstimated`). */
  memAvailableKb: number | null;
  memAvailableEstimated: boolean;
}

export interface ProcStatusRecord {
  kind: 'status';
  line: number;
  name: string | null;
  pid: number | null;
  state: string | null;
  threads: number | null;
  /** `Kthread:` when printed (6.x), else true when `Threads:` came without any `Vm*` line; null if unknown. */
  kernelThread: boolean | null;
  vmPeakKb: number | null;
  vmSizeKb: number | null;
  vmHwmKb: number | null;
  vmRssKb: number | null;
  rssAnonKb: number | null;
  rssFileKb: number | null;
  rssShmemKb: number | null;
  vmDataKb: number | null;
  vmSwapKb: number | null;
  kb: Record<string, number>;
  /** Every other key, raw text. */
  fields: Record<string, string>;
}

export interface StatmRecord {
  kind: 'statm';
  line: number;
  pageSizeBytes: number | null;
  sizePages: number;
  residentPages: number;
  sharedPages: number;
  textPages: number;
  dataPages: number;
  /** Null unless the page size was given (never assumed). */
  sizeBytes: number | null;
  residentBytes: number | null;
  sharedBytes: number | null;
  textBytes: number | null;
  dataBytes: number | null;
}

// ---------------------------------------------------------------------------------------------
// llama.cpp logs

export type TimingPhase = 'load' | 'prompt' | 'eval' | 'sample' | 'total';

export interface TimingsRecord {
  kind: 'timings';
  line: number;
  phase: TimingPhase;
  /** Null when only a rate was printed (llama-cli's `[ Prompt: 62.6 t/s | Generation: 4.7 t/s ]`, server progress lines). */
  ms: number | null;
  /** Tokens (or runs) the phase covered; null when not printed. */
  tokens: number | null;
  /** Null when not printed or printed as inf/nan. */
  tokensPerSecond: number | null;
  msPerToken: number | null;
  /** The label as printed: `prompt eval`, `generation eval`, `sampling`, `samplers`… */
  label: string;
  /** Printing function / origin: `llama_print_timings`, `llama_perf_context_print`, `slot`, `server-json`, `ollama`… */
  source: string;
  slotId: number | null;
  taskId: number | null;
  /** Server JSON only: fields of the `timings` object other than the eight standard ones (cache_n, draft_n…). */
  extra?: Record<string, unknown>;
}

export interface KvPart {
  /** `K`, `V`, `c^KV`, `R`, `S`… */
  name: string;
  type: string | null;
  bytes: number | null;
}

export interface KvRecord {
  kind: 'kv';
  line: number;
  /** `total`: the whole cache (or one sub-cache of an iSWA pair); `device-buffer`: one backend buffer
   *  (several per cache — do not add them to the total); `config`: geometry without a size. */
  scope: 'total' | 'device-buffer' | 'config';
  sizeBytes: number | null;
  cells: number | null;
  layers: number | null;
  seqs: number | null;
  streams: number | null;
  typeK: string | null;
  typeV: string | null;
  kBytes: number | null;
  vBytes: number | null;
  device: string | null;
  /** iSWA caches: true for the sliding-window sub-cache, false for the full one, null otherwise. */
  swa: boolean | null;
  /** Recurrent state (`llama_memory_recurrent`), not a KV cache. */
  recurrent: boolean;
  parts: KvPart[];
  source: string;
}

/**
 * What a log says about the model and the context. A log prints this over many lines; the parser
 * emits one record per contiguous block (model meta, then context), each with the fields it saw —
 * merge them in order. Fields not printed are absent.
 */
export interface ModelRecord {
  kind: 'model';
  line: number;
  source: string;
  arch?: string;
  modelType?: string;
  modelName?: string;
  fileType?: string;
  modelSizeBytes?: number;
  bitsPerWeight?: number;
  nParams?: number;
  nVocab?: number;
  nCtxTrain?: number;
  nEmbd?: number;
  nLayer?: number;
  /** Null when it varies per layer (then see nHeadPerLayer). */
  nHead?: number | null;
  nHeadPerLayer?: number[];
  nHeadKv?: number | null;
  nHeadKvPerLayer?: number[];
  headDimK?: number;
  headDimV?: number;
  nRot?: number;
  nFf?: number | null;
  nExpert?: number;
  nExpertUsed?: number;
  /** `n_swa`: sliding-window size in tokens (0 = none). */
  slidingWindow?: number;
  nCtx?: number;
  nCtxPerSeq?: number;
  nSeqMax?: number;
  nBatch?: number;
  nUbatch?: number;
  flashAttn?: string;
  /** Other `key = value` pairs of the block, raw. */
  extra?: Record<string, string>;
}

// ---------------------------------------------------------------------------------------------
// llama-bench

export interface BenchRecord {
  kind: 'bench';
  line: number;
  format: 'markdown' | 'csv' | 'json' | 'jsonl';
  /** model_type as llama-bench prints it (`llama 8B F16`). */
  model: string | null;
  modelFilename: string | null;
  /** `pp512`, `tg128`, `pp512+tg128`, `pp512 @ d4096`. */
  test: string | null;
  nPrompt: number | null;
  nGen: number | null;
  nDepth: number | null;
  tokensPerSecond: number | null;
  stddev: number | null;
  backend: string | null;
  threads: number | null;
  nGpuLayers: number | null;
  sizeBytes: number | null;
  paramsCount: number | null;
  typeK: string | null;
  typeV: string | null;
  flashAttn: string | null;
  nBatch: number | null;
  nUbatch: number | null;
  buildCommit: string | null;
  buildNumber: number | null;
  /** Columns without a field of their own, raw. */
  extra: Record<string, unknown>;
}

/** `build: c262bedd (5043)` under or over a markdown table. */
export interface BenchBuildRecord {
  kind: 'bench-build';
  line: number;
  commit: string;
  number: number | null;
}

// ---------------------------------------------------------------------------------------------
// thermal, clocks, power

export interface ThermalTrip {
  index: number;
  tempC: number | null;
  type: string | null;
  hystC: number | null;
}

/**
 * One /sys/class/thermal/cooling_deviceN read: the step the thermal framework holds a cooling device at
 * (cpufreq cooling: 0 uncapped, max_state the lowest clock; a fan: its speed step). null: not read here.
 */
export interface CoolingDeviceRecord {
  kind: 'cooling-device';
  line: number;
  device: string;
  /** `thermal-cpufreq-0`, `cpufreq-cpu0`, `pwm-fan`, `Processor`… */
  type: string | null;
  curState: number | null;
  maxState: number | null;
  /** errno name of a failed read. */
  error: string | null;
}

/** One /sys/class/thermal/thermal_zoneN read. tempC null with error null: not read in this capture. */
export interface ThermalZoneRecord {
  kind: 'thermal-zone';
  line: number;
  zone: string | null;
  type: string | null;
  tempC: number | null;
  /** errno name of a failed read (EAGAIN on power-gated Jetson zones, EINVAL, ENOENT…) or the message. */
  error: string | null;
  trips: ThermalTrip[];
}

export interface CpufreqRecord {
  kind: 'cpufreq';
  line: number;
  cpu: number | null;
  policy: number | null;
  attr: string;
  /** For *_freq attributes (kHz as sysfs prints them). Pi: scaling_cur_freq is the requested clock. */
  freqKHz: number | null;
  value: string | null;
  error: string | null;
}

/**
 * One row of cpufreq `stats/time_in_state` (drivers/cpufreq/cpufreq_stats.c): the time a CPU spent at a
 * frequency since boot or the last reset. cpu or policy by the path read (both null under a glob).
 */
export interface CpufreqTimeRecord {
  kind: 'cpufreq-time';
  line: number;
  cpu: number | null;
  policy: number | null;
  freqKHz: number;
  /** The kernel prints clock_t ticks: USER_HZ is 100 on arm, arm64 and x86, so 10 ms a tick. */
  timeMs: number;
}

export interface DevfreqRecord {
  kind: 'devfreq';
  line: number;
  device: string;
  attr: string | null;
  curFreqHz: number | null;
  governor: string | null;
  availableGovernors: string[] | null;
  availableFreqsHz: number[] | null;
  /** devfreq `load` (`37@800000000Hz`). */
  loadPct: number | null;
  /** `min_freq` / `max_freq` (the governor's bounds, Hz). */
  minFreqHz?: number | null;
  maxFreqHz?: number | null;
  error: string | null;
}

/** One row of devfreq trans_stat. */
export interface DevfreqTransRecord {
  kind: 'devfreq-trans';
  line: number;
  device: string | null;
  freqHz: number;
  /** The row marked `*`. */
  current: boolean;
  transitions: number[];
  timeMs: number;
}

export interface DevfreqTransTotalRecord {
  kind: 'devfreq-trans-total';
  line: number;
  device: string | null;
  total: number;
}

/** An lm-sensors reading (`sensors` or `sensors -u`) or a hwmon input file. Values in C, V, A, W. */
export interface SensorRecord {
  kind: 'sensor';
  line: number;
  chip: string;
  label: string;
  value: number | null;
  unit: string | null;
  crit: number | null;
  max: number | null;
  min: number | null;
  alarm: boolean;
  /** The rail or sensor name from hwmon `<feature>_label` / iio `rail_name_N` (INA3221: `VDD_IN`). */
  name?: string | null;
}

export interface VcTempRecord {
  kind: 'vc-temp';
  line: number;
  tempC: number;
}

export interface ThrottledRecord {
  kind: 'throttled';
  line: number;
  /** `vcgencmd get_throttled`, the kernel's under-voltage lines, or the firmware sysfs mirror. */
  source: 'vcgencmd' | 'kernel' | 'sysfs';
  raw: string;
  bits: number;
  underVoltageNow: boolean;
  armFreqCappedNow: boolean;
  throttledNow: boolean;
  softTempLimitNow: boolean;
  underVoltageOccurred: boolean;
  armFreqCappedOccurred: boolean;
  throttledOccurred: boolean;
  softTempLimitOccurred: boolean;
  /** Bits outside 0–3 and 16–19. */
  otherBits: number;
}

/** `vcgencmd measure_clock X` → `frequency(48)=1500345728` (the clock id, not its name, is printed). */
export interface VcClockRecord {
  kind: 'vc-clock';
  line: number;
  clockId: number;
  freqHz: number;
  /** The clock's name when the paste printed it before the reading (`arm:\tfrequency(45)=…`, elinux's loop). */
  label?: string;
}

export interface VcVoltsRecord {
  kind: 'vc-volts';
  line: number;
  volts: number;
  /** The rail's name when the paste printed it before the reading (`sdram_c:\tvolt=1.2000V`, elinux's loop). */
  label?: string;
}

/**
 * `vcgencmd get_mem <type>` → `arm=948M`, `gpu=76M` (and, on firmware since 2021, `malloc_total`,
 * `malloc`, `reloc_total`, `reloc`): the memory split between the ARM and the VideoCore, in MiB.
 */
export interface VcMemRecord {
  kind: 'vc-mem';
  line: number;
  type: string;
  bytes: number;
}

/** `vcgencmd pmic_read_adc` (Pi 5). */
export interface PmicAdcRecord {
  kind: 'pmic-adc';
  line: number;
  rail: string;
  channel: number;
  quantity: 'current' | 'volt';
  value: number;
  unit: 'A' | 'V';
}

/** RK3588 `/sys/kernel/debug/rknpu/load`. */
export interface NpuLoadRecord {
  kind: 'npu-load';
  line: number;
  corePct: number[];
}

/** NVIDIA Jetson GPU load: nvgpu's `load` attribute (`/sys/devices/gpu.0/load`, `/sys/devices/platform/gpu.0/load`). */
export interface GpuLoadRecord {
  kind: 'gpu-load';
  line: number;
  /** The GPU device's directory name (`gpu.0`, `17000000.gv11b`). */
  device: string;
  /** The driver prints tenths of a percent (0–1000). */
  loadPct: number | null;
  /** errno name of a failed read. */
  error: string | null;
}

/** Rockchip RGA `/sys/kernel/debug/rkrga/load`: one record per scheduler (RGA core). */
export interface RgaLoadRecord {
  kind: 'rga-load';
  line: number;
  scheduler: number;
  /** Driver name (`rga3_core0`, `rga2`). */
  name: string;
  /** Newer drivers print `load = N%`. */
  loadPct: number | null;
  /** Older drivers print `load = N` without a unit: kept raw, never guessed into a percentage. */
  loadRaw: number | null;
}

export type ThermalRecordKind =
  | RgaLoadRecord
  | GpuLoadRecord
  | ThermalZoneRecord
  | CoolingDeviceRecord
  | CpufreqRecord
  | CpufreqTimeRecord
  | DevfreqRecord
  | DevfreqTransRecord
  | DevfreqTransTotalRecord
  | SensorRecord
  | VcTempRecord
  | ThrottledRecord
  | VcClockRecord
  | VcVoltsRecord
  | VcMemRecord
  | PmicAdcRecord
  | NpuLoadRecord;

export type ParseRecord =
  | Diagnostic
  | TegrastatsRecord
  | PerfRecord
  | PerfElapsedRecord
  | PerfHeaderRecord
  | PerfMetricRecord
  | PmapRecord
  | SmapsRecord
  | MeminfoRecord
  | ProcStatusRecord
  | StatmRecord
  | TimingsRecord
  | KvRecord
  | ModelRecord
  | BenchRecord
  | BenchBuildRecord
  | ThermalRecordKind;

/**
 * A streaming parser over lines. `push` takes the next line (without its terminator) and returns
 * the records it completes; `end` flushes what a stateful parser still holds. Line numbers are
 * counted by the parser: push every line, blank ones included. `droppedChars`: characters the line
 * splitter cut from this line (line-cap.ts); such a line becomes a diagnostic.
 */
export interface LineParser<R extends { kind: string; line: number } = ParseRecord> {
  push(line: string, droppedChars?: number): R[];
  end(): R[];
}

export function diagnostic(line: number, reason: string, text: string): Diagnostic {
  return { kind: 'diagnostic', line, reason, text };
}

/** A comment line: first non-blank character `#`. */
export function isCommentLine(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9) continue;
    return c === 35;
  }
  return false;
}

export function isBlankLine(text: string): boolean {
  return text.trim() === '';
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
const NOT_TEXT_RE = /[\u0000-\u0008\u000a-\u001f\u007f\ufffd]/;

/**
 * Whether a line holds what no tool prints: a control character other than a tab (colour codes
 * are stripped before this is asked) or U+FFFD, which undecodable bytes become (line-splitter.ts).
 * Such a line is noise, whatever its digits and separators look like.
 */
export function isNotText(text: string): boolean {
  return NOT_TEXT_RE.test(text);
}
