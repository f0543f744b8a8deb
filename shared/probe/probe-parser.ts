// Parser of the probe script's output (electron/node/probe/probe-script.ts). The script prints
// `@@kvscope-probe:1@@`, then sections that each start with `@@kvscope:<name>@@`. Inside a
// section, files are reported as `key=first line` (`key!` when the read failed, e.g. EAGAIN on a
// power-gated Jetson zone) or copied raw (meminfo, swaps, os-release, df).
//
// Formats, from the kernel documentation and checked against real captures
// (test/fixtures/probe/*/SOURCE):
// - /proc/meminfo: `Key:   N kB` (HugePages_* without unit; whitespace may be squeezed); MemAvailable
//   exists only since 3.14 (proc(5));
// - cpufreq policyN/*: kHz (Documentation/admin-guide/pm/cpufreq.rst); related_cpus "0 1 2 3";
// - thermal_zoneN/temp and trip_point_N_temp: millidegrees C (Documentation/driver-api/thermal/sysfs-api.rst);
// - devfreq cur_freq/min_freq/max_freq: Hz (Documentation/ABI/testing/sysfs-class-devfreq);
// - THP enabled/defrag: choices with the active one in brackets (Documentation/admin-guide/mm/transhuge.rst);
// - zram comp_algorithm "lzo [lz4] zstd", mm_stat "orig compr used …" bytes (Documentation/admin-guide/blockdev/zram.rst);
// - cgroup v2 memory.max "max" or bytes; v1 memory.limit_in_bytes with 9223372036854771712 for "unlimited";
// - /proc/swaps sizes in KiB; `df -Pk` 1024-byte blocks (POSIX).
// Never throws: what cannot be read becomes a diagnostic and a null.
import type { CpufreqPolicy, DevfreqDevice, ProbeResult, ThermalZone } from './probe-schema';

export const PROBE_HEADER = '@@kvscope-probe:1@@';
export const PROBE_SECTION_RE = /^@@kvscope:([a-z0-9_-]+)@@$/;
export const probeSectionMarker = (name: string) => `@@kvscope:${name}@@`;

/** Split the output into sections (tolerates \r\n, text before the header, unknown sections). */
export function splitProbeSections(text: string): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const m = PROBE_SECTION_RE.exec(line);
    if (m) {
      current = [];
      sections.set(m[1] ?? '', current);
      continue;
    }
    if (current) current.push(line);
  }
  return sections;
}

interface KvLine {
  value: string | null; // null = the read failed
}

/** `key=value` / `key!` lines of a section. */
export function parseKvLines(lines: readonly string[]): Map<string, KvLine> {
  const out = new Map<string, KvLine>();
  for (const line of lines) {
    if (line === '') continue;
    const eq = line.indexOf('=');
    if (eq > 0) out.set(line.slice(0, eq), { value: line.slice(eq + 1) });
    else if (line.endsWith('!')) out.set(line.slice(0, -1), { value: null });
  }
  return out;
}

/** `policy0/scaling_cur_freq` → `policy0`. */
const firstSegment = (key: string): string => key.split('/', 1)[0] ?? '';

const toInt = (s: string | null | undefined): number | null => {
  if (s === null || s === undefined) return null;
  const t = s.trim();
  if (!/^-?\d+$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
};

const toNum = (s: string | null | undefined): number | null => {
  if (s === null || s === undefined) return null;
  const t = s.trim();
  if (!/^-?\d+(?:\.\d+)?$/.test(t)) return null;
  return Number(t);
};

const nonEmpty = (s: string | null | undefined): string | null => {
  if (s === null || s === undefined) return null;
  const t = s.trim();
  return t === '' ? null : t;
};

/** The bracketed choice of "always [madvise] never". */
export function bracketedChoice(text: string | null | undefined): string | null {
  if (!text) return null;
  // indexOf, not a regex: a run of `[` must not cost quadratic time.
  for (let open = text.indexOf('['); open >= 0; open = text.indexOf('[', open + 1)) {
    const close = text.indexOf(']', open + 1);
    if (close < 0) return null;
    if (close > open + 1) return text.slice(open + 1, close);
  }
  return null;
}

/**
 * The most CPUs a list names: Linux's largest NR_CPUS is 8192. A damaged list of many wide ranges
 * (each capped at 4096) grew an array past V8's limit and killed the process (the probe-parser fuzz).
 */
const MAX_LISTED_CPUS = 8192;

/** "0-3,6,8-9" → [0,1,2,3,6,8,9]; "0 1 2 3" (related_cpus) → [0,1,2,3]; at most MAX_LISTED_CPUS entries. */
export function parseCpuList(text: string | null | undefined): number[] {
  if (!text) return [];
  const out: number[] = [];
  for (const part of text.trim().split(/[\s,]+/)) {
    if (part === '') continue;
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) continue;
    const a = Number(m[1]);
    const b = m[2] !== undefined ? Number(m[2]) : a;
    for (let i = a; i <= b && i - a < 4096 && out.length < MAX_LISTED_CPUS; i++) out.push(i);
    if (out.length >= MAX_LISTED_CPUS) break;
  }
  return out;
}

/** /proc/meminfo lines → key → kB (or the count, for HugePages_*). */
export function parseMeminfo(lines: readonly string[]): { values: Record<string, number>; bad: string[] } {
  const values: Record<string, number> = {};
  const bad: string[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    const m = /^([\w()]+):\s*(\d+)(?:\s*kB)?$/.exec(line.trim());
    if (m) values[m[1] ?? ''] = Number(m[2]);
    else bad.push(line);
  }
  return { values, bad };
}

function devfreqKind(name: string): DevfreqDevice['kind'] {
  const n = name.toLowerCase();
  if (/gpu|mali|ga10b|gv11b|gp10b|gm20b|gr3d|v3d|adreno|kgsl/.test(n)) return 'gpu';
  if (/npu|rknpu|dla/.test(n)) return 'npu';
  if (/dmc|emc|ddr|dram|mem|bus/.test(n)) return 'dram';
  return 'other';
}

// v1's "no limit" is the page-counter maximum rounded to a page (9223372036854771712 on 4 KiB
// pages); anything at or above 2^60 bytes is treated as unlimited.
const UNLIMITED_BYTES = 2 ** 60;

export function parseProbeOutput(text: string): ProbeResult {
  const diagnostics: ProbeResult['diagnostics'] = [];
  const diag = (section: string, reason: string, t = '') =>
    diagnostics.push({ section, reason, text: t.slice(0, 200) });
  if (!text.includes(PROBE_HEADER))
    diag('header', 'probe header missing: output is not from the KVScope probe script or was cut', text.slice(0, 200));
  const sections = splitProbeSections(text);
  const sec = (name: string) => sections.get(name) ?? [];
  const kvs = (name: string) => parseKvLines(sec(name));
  const val = (m: Map<string, KvLine>, k: string) => m.get(k)?.value ?? null;
  if (!sections.has('end')) diag('end', 'probe output is incomplete (no end marker): the script was interrupted');

  // --- identity
  const uname = kvs('uname');
  const osRelease = new Map<string, string>();
  for (const line of sec('os-release')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) osRelease.set(m[1] ?? '', (m[2] ?? '').replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1'));
  }
  const distro =
    osRelease.get('PRETTY_NAME') ??
    (osRelease.get('NAME') ? `${osRelease.get('NAME')} ${osRelease.get('VERSION') ?? ''}`.trim() : null);
  const modelText = sec('model').join('\n').replace(/\0/g, '').trim();

  // --- cpu
  const cpuKv = kvs('cpu');
  const online = nonEmpty(val(cpuKv, 'online'));
  const onlineList = parseCpuList(online);
  const nproc = toInt(val(cpuKv, 'nproc'));
  const modelName =
    nonEmpty(val(cpuKv, 'model name')) ?? nonEmpty(val(cpuKv, 'Hardware')) ?? nonEmpty(val(cpuKv, 'Model'));

  const cpufreq = kvs('cpufreq');
  const policyNames = [...new Set([...cpufreq.keys()].map(firstSegment))].sort(
    (a, b) => (toInt(a.replace(/\D+/g, '')) ?? 0) - (toInt(b.replace(/\D+/g, '')) ?? 0),
  );
  const policies: CpufreqPolicy[] = [];
  const seenCpuSets = new Set<string>();
  for (const p of policyNames) {
    const g = (f: string) => val(cpufreq, `${p}/${f}`);
    const cpus = parseCpuList(g('related_cpus') ?? g('affected_cpus'));
    const key = cpus.join(',');
    if (key && seenCpuSets.has(key)) continue; // old kernels: cpuN/cpufreq dirs repeat a shared policy
    if (key) seenCpuSets.add(key);
    policies.push({
      policy: p,
      cpus,
      governor: nonEmpty(g('scaling_governor')),
      availableGovernors: (g('scaling_available_governors') ?? '').split(/\s+/).filter(Boolean),
      driver: nonEmpty(g('scaling_driver')),
      curKHz: toInt(g('scaling_cur_freq')),
      minKHz: toInt(g('scaling_min_freq')),
      maxKHz: toInt(g('scaling_max_freq')),
      hwMinKHz: toInt(g('cpuinfo_min_freq')),
      hwMaxKHz: toInt(g('cpuinfo_max_freq')),
    });
  }

  // --- memory
  const mem = parseMeminfo(sec('meminfo'));
  for (const b of mem.bad) diag('meminfo', 'unreadable meminfo line', b);
  const kb = (k: string) => (mem.values[k] !== undefined ? mem.values[k] * 1024 : null);
  let availableBytes = kb('MemAvailable');
  let availableEstimated = false;
  if (availableBytes === null && mem.values.MemFree !== undefined) {
    // Kernels before 3.14 have no MemAvailable: the classic estimate.
    availableBytes = ((mem.values.MemFree ?? 0) + (mem.values.Buffers ?? 0) + (mem.values.Cached ?? 0)) * 1024;
    availableEstimated = true;
  }
  const nvmapBytes: Record<string, number> = {};
  for (const [k, v] of Object.entries(mem.values)) if (k.startsWith('NvMap')) nvmapBytes[k] = v * 1024;
  if (sec('meminfo').length === 0) diag('meminfo', '/proc/meminfo missing from the probe output');

  // --- swaps
  const swaps: ProbeResult['swaps'] = [];
  for (const line of sec('swaps')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 4 || f[0] === 'Filename' || line.trim() === '') continue;
    const size = toInt(f[2]);
    const used = toInt(f[3]);
    if (size === null || used === null) {
      diag('swaps', 'unreadable /proc/swaps line', line);
      continue;
    }
    swaps.push({
      filename: f[0] ?? '',
      type: f[1] ?? '',
      sizeBytes: size * 1024,
      usedBytes: used * 1024,
      priority: toInt(f[4]),
    });
  }

  // --- zram
  const zramKv = kvs('zram');
  const zramNames = [...new Set([...zramKv.keys()].map(firstSegment))].sort();
  const zram: ProbeResult['zram'] = zramNames.map((d) => {
    const algText = val(zramKv, `${d}/comp_algorithm`);
    const mm = (val(zramKv, `${d}/mm_stat`) ?? '').trim().split(/\s+/);
    return {
      device: d,
      disksizeBytes: toInt(val(zramKv, `${d}/disksize`)),
      algorithm: bracketedChoice(algText),
      algorithms: (algText ?? '').replace(/[[\]]/g, '').split(/\s+/).filter(Boolean),
      origDataBytes: toInt(mm[0]),
      comprDataBytes: toInt(mm[1]),
      usedAsSwap: swaps.some((s) => s.filename === `/dev/${d}`),
    };
  });

  // --- page size, THP, vm
  const ps = kvs('pagesize');
  const pageSizeBytes = toInt(val(ps, 'getconf')) ?? ((toInt(val(ps, 'smaps_kb')) ?? 0) * 1024 || null);
  const thpKv = kvs('thp');
  const vmKv = kvs('vm');

  // --- cgroup
  const cg = sec('cgroup');
  const cgroupLines = cg.filter((l) => l.startsWith('line=')).map((l) => l.slice(5));
  const v2Path = cgroupLines.map((l) => /^0::(.*)$/.exec(l)?.[1]).find((p) => p !== undefined) ?? null;
  const v1Path =
    cgroupLines
      .map((l) => /^\d+:([^:]*):(.*)$/.exec(l))
      .find((m) => m && (m[1] ?? '').split(',').includes('memory'))?.[2] ?? null;
  const levels: ProbeResult['cgroup']['levels'] = [];
  let version: 1 | 2 | null = null;
  let hierarchical: number | null = null;
  for (const [k, v] of parseKvLines(cg)) {
    if (k === 'line') continue;
    let m = /^v2:(.*)\/(memory\.max|memory\.high)$/.exec(k);
    if (m) {
      version = 2;
      const n = v.value === null ? null : v.value.trim() === 'max' ? null : toInt(v.value);
      levels.push({ path: m[1] || '/', file: m[2] ?? '', limitBytes: n !== null && n >= UNLIMITED_BYTES ? null : n });
      continue;
    }
    m = /^v1:(.*)\/(memory\.limit_in_bytes)$/.exec(k);
    if (m) {
      version = 1;
      const n = toInt(v.value);
      levels.push({ path: m[1] || '/', file: m[2] ?? '', limitBytes: n !== null && n >= UNLIMITED_BYTES ? null : n });
      continue;
    }
    if (k === 'v1:hierarchical_memory_limit') {
      version = 1;
      const n = toInt(v.value);
      hierarchical = n !== null && n < UNLIMITED_BYTES ? n : null;
    }
  }
  if (version === null && v1Path !== null) version = 1;
  if (version === null && v2Path !== null && !v1Path) version = 2;
  let memoryLimitBytes: number | null = null;
  let limitSource: string | null = null;
  for (const l of levels) {
    if (l.file === 'memory.high') continue; // a throttling point, not the OOM limit
    if (l.limitBytes !== null && (memoryLimitBytes === null || l.limitBytes < memoryLimitBytes)) {
      memoryLimitBytes = l.limitBytes;
      limitSource = `${l.path === '/' ? '' : l.path}/${l.file}`;
    }
  }
  if (hierarchical !== null && (memoryLimitBytes === null || hierarchical < memoryLimitBytes)) {
    memoryLimitBytes = hierarchical;
    limitSource = 'memory.stat hierarchical_memory_limit';
  }

  // --- perf, tools
  const perfKv = kvs('perf');
  const perfPath = nonEmpty(val(perfKv, 'path'));
  const perfStatus = toInt(val(perfKv, 'version_status'));
  const toolsKv = kvs('tools');
  const tools: Record<string, string | null> = {};
  let nodeVersion: string | null = null;
  for (const [k, v] of toolsKv) {
    if (k === 'node_version') nodeVersion = nonEmpty(v.value);
    else tools[k] = nonEmpty(v.value);
  }

  // --- thermal
  const thermalKv = kvs('thermal');
  const zoneNames = [...new Set([...thermalKv.keys()].map(firstSegment))].sort(
    (a, b) => (toInt(a.replace(/\D+/g, '')) ?? 0) - (toInt(b.replace(/\D+/g, '')) ?? 0),
  );
  const thermal: ThermalZone[] = zoneNames.map((z) => {
    const tempEntry = thermalKv.get(`${z}/temp`);
    const milli = toInt(tempEntry?.value);
    const trips: ThermalZone['trips'] = [];
    for (const k of thermalKv.keys()) {
      const m = new RegExp(`^${z.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(trip_point_\\d+)_temp$`).exec(k);
      if (!m) continue;
      const t = toInt(val(thermalKv, k));
      trips.push({
        name: m[1] ?? '',
        type: nonEmpty(val(thermalKv, `${z}/${m[1] ?? ''}_type`)),
        tempC: t === null ? null : t / 1000,
      });
    }
    trips.sort((a, b) => (toInt(a.name.replace(/\D+/g, '')) ?? 0) - (toInt(b.name.replace(/\D+/g, '')) ?? 0));
    // -256 °C (and similar) is a sensor-off sentinel on some Jetson zones.
    const tempC = milli === null || milli <= -200_000 ? null : milli / 1000;
    return {
      zone: z,
      type: nonEmpty(val(thermalKv, `${z}/type`)),
      tempC,
      unreadable: tempEntry !== undefined && tempEntry.value === null,
      trips,
    };
  });

  // --- devfreq
  const devKv = kvs('devfreq');
  const devNames = [...new Set([...devKv.keys()].map((k) => k.slice(0, k.lastIndexOf('/'))))].filter(Boolean).sort();
  const devfreq: DevfreqDevice[] = devNames.map((d) => ({
    name: d,
    kind: devfreqKind(d),
    curHz: toInt(val(devKv, `${d}/cur_freq`)),
    minHz: toInt(val(devKv, `${d}/min_freq`)),
    maxHz: toInt(val(devKv, `${d}/max_freq`)),
    governor: nonEmpty(val(devKv, `${d}/governor`)),
    availableHz: (val(devKv, `${d}/available_frequencies`) ?? '')
      .split(/\s+/)
      .map((s) => toInt(s))
      .filter((n): n is number => n !== null),
  }));

  // --- misc
  const smapsLine = sec('smaps_rollup')
    .find((l) => l.trim() !== '')
    ?.trim();
  const upKv = kvs('uptime');
  const uptimeSec = toNum((val(upKv, 'uptime') ?? '').split(/\s+/)[0]);
  const loadParts = (val(upKv, 'loadavg') ?? '').split(/\s+/).slice(0, 3).map(toNum);
  const loadAvg = loadParts.length === 3 && loadParts.every((n) => n !== null) ? loadParts : null;

  let tmpDisk: ProbeResult['tmpDisk'] = null;
  const dfLines = sec('df').filter((l) => l.trim() !== '');
  if (dfLines.length >= 2) {
    // Filesystem 1024-blocks Used Available Capacity Mounted-on; a long device name may wrap.
    const joined = dfLines.slice(1).join(' ').trim().split(/\s+/);
    const total = toInt(joined[1]);
    const avail = toInt(joined[3]);
    if (total !== null && avail !== null)
      tmpDisk = {
        filesystem: joined[0] ?? '',
        mount: joined.slice(5).join(' ') || '/tmp',
        totalBytes: total * 1024,
        availableBytes: avail * 1024,
      };
    else diag('df', 'unreadable df -Pk output', dfLines.join(' | '));
  }

  const rpiKv = kvs('rpi');
  const throttledText = val(rpiKv, 'get_throttled');
  const throttledHex = throttledText ? /throttled=0x([0-9a-fA-F]+)/.exec(throttledText)?.[1] : undefined;
  const throttledBits = throttledHex !== undefined ? parseInt(throttledHex, 16) : null;

  const jetsonKv = kvs('jetson');

  return {
    schemaVersion: 1,
    targetEpochSec: toInt(val(uname, 'epoch')),
    arch: nonEmpty(val(uname, 'arch')),
    kernel: nonEmpty(val(uname, 'kernel')),
    hostname: nonEmpty(val(uname, 'hostname')),
    distro: nonEmpty(distro),
    boardModel: modelText === '' ? null : modelText,
    user: nonEmpty(val(uname, 'user')),
    uid: toInt(val(uname, 'uid')),
    cpu: {
      count: onlineList.length > 0 ? onlineList.length : nproc,
      online,
      modelName,
      policies,
    },
    memory: {
      totalBytes: kb('MemTotal'),
      freeBytes: kb('MemFree'),
      availableBytes,
      availableEstimated,
      swapTotalBytes: kb('SwapTotal'),
      swapFreeBytes: kb('SwapFree'),
      cmaTotalBytes: kb('CmaTotal'),
      nvmapBytes,
      meminfoKb: mem.values,
    },
    swaps,
    zram,
    pageSizeBytes,
    thp: { enabled: bracketedChoice(val(thpKv, 'enabled')), defrag: bracketedChoice(val(thpKv, 'defrag')) },
    vm: {
      overcommitMemory: toInt(val(vmKv, 'overcommit_memory')),
      swappiness: toInt(val(vmKv, 'swappiness')),
      minFreeKbytes: toInt(val(vmKv, 'min_free_kbytes')),
    },
    cgroup: { version, path: version === 2 ? v2Path : v1Path, memoryLimitBytes, limitSource, levels },
    perf: {
      path: perfPath,
      version: nonEmpty(val(perfKv, 'version')),
      usable: perfPath === null ? null : perfStatus === null ? null : perfStatus === 0,
      eventParanoid: toInt(val(perfKv, 'paranoid')),
    },
    tools,
    nodeVersion,
    thermal,
    devfreq,
    smapsRollup: smapsLine === 'yes' ? true : smapsLine === 'no' ? false : null,
    uptimeSec,
    loadAvg,
    tmpDisk,
    raspberryPi: { throttledBits },
    jetson: { l4tRelease: nonEmpty(val(jetsonKv, 'l4t')) },
    diagnostics,
  };
}
