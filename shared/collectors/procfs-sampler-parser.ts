// Parser of the procfs sampler's lines (shared/collectors/procfs-sampler-script.ts).
// Pure and stateful: CPU percentages are deltas between ticks. Sizes arrive in kB (as the
// kernel prints them in status/smaps_rollup/meminfo) or pages (statm, times the page size the
// target reported) and leave as bytes. A line it cannot read becomes a diagnostic, kept.

export interface SamplerHeader {
  pid: number;
  pageSizeBytes: number;
  clockTicksPerSecond: number;
  zoneTypes: string[];
  policies: string[];
}

export type SamplerRecord =
  | { kind: 'header'; header: SamplerHeader }
  | { kind: 'sample'; uptimeMs: number; values: Record<string, number | null> }
  | { kind: 'gone'; uptimeMs: number }
  | { kind: 'diagnostic'; reason: string; text: string };

const KIB = 1024;

/** kB fields of the S line and the sample keys they become (bytes). */
const kbFields: Record<string, string> = {
  rss: 'rssBytes',
  anon: 'rssAnonBytes',
  file: 'rssFileBytes',
  shmem: 'rssShmemBytes',
  pss: 'pssBytes',
  sanon: 'smapsAnonBytes',
  swap: 'swapBytes',
  hwm: 'rssPeakBytes',
  mt: 'memTotalBytes',
  ma: 'memAvailableBytes',
  mf: 'memFreeBytes',
  ca: 'memCachedBytes',
  swt: 'swapTotalBytes',
  swf: 'swapFreeBytes',
  nvmap: 'nvmapBytes',
};

/**
 * A number as the sampler's awk prints it: decimal (negative only for a thermal zone below 0 °C),
 * or awk's `%.6g` for a sum past its integer range (`2.14748e+09`). Anything else — `0x1F`, `inf`,
 * `-nan`, damage — is no reading: null (Number() would take `0x1F` and `Infinity`).
 */
function num(text: string | undefined): number | null {
  if (text === undefined || !/^-?\d+(?:\.\d+)?(?:e[-+]?\d+)?$/.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

function fields(line: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const token of line.split(' ').slice(1)) {
    const eq = token.indexOf('=');
    if (eq > 0) map.set(token.slice(0, eq), token.slice(eq + 1));
  }
  return map;
}

/** Sample keys for a thermal zone type and a cpufreq policy, shared with the UI and reports. */
export const tempKey = (zoneType: string) => `temp.${zoneType}.C`;
export const cpufreqKey = (policy: string) => `cpufreq.${policy}.KHz`;
/** A cpufreq policy's cap (scaling_max_freq), kHz. */
export const cpufreqCapKey = (policy: string) => `cpufreq.${policy}.max.KHz`;

export function createProcfsSamplerParser() {
  let header: SamplerHeader = { pid: 0, pageSizeBytes: 4096, clockTicksPerSecond: 100, zoneTypes: [], policies: [] };
  let prevCpu: number[] | null = null;
  let prevProc: { ticks: number; uptimeMs: number } | null = null;

  function parseHeader(line: string): SamplerRecord {
    const f = fields(line);
    const pageSizeBytes = num(f.get('pagesize'));
    if (!pageSizeBytes || pageSizeBytes < 512)
      return { kind: 'diagnostic', reason: 'sampler header without a page size', text: line };
    const list = (v: string | undefined) => (v ?? '').split(',').filter((s) => s !== '');
    // Zone types can repeat (two "cpu-thermal" zones on some boards): number the repeats.
    const seen = new Map<string, number>();
    const zoneTypes = list(f.get('zones')).map((t) => {
      const n = (seen.get(t) ?? 0) + 1;
      seen.set(t, n);
      return n === 1 ? t : `${t}#${n}`;
    });
    header = {
      pid: num(f.get('pid')) ?? 0,
      pageSizeBytes,
      clockTicksPerSecond: num(f.get('clk')) ?? 100,
      zoneTypes,
      policies: list(f.get('policies')),
    };
    return { kind: 'header', header };
  }

  function parseSample(line: string): SamplerRecord {
    const f = fields(line);
    const uptimeS = num(f.get('t'));
    if (uptimeS === null || uptimeS < 0)
      return { kind: 'diagnostic', reason: 'sampler line without a time', text: line };
    const uptimeMs = Math.round(uptimeS * 1000);
    if (f.get('gone') === '1') return { kind: 'gone', uptimeMs };
    const values: Record<string, number | null> = {};
    for (const [field, key] of Object.entries(kbFields)) {
      const kb = num(f.get(field));
      // pss/sanon come every few ticks only (smaps_rollup is costly): absent is not "null".
      if (kb === null && (field === 'pss' || field === 'sanon') && !f.has(field)) continue;
      values[key] = kb === null ? null : kb * KIB;
    }
    // Kernels before 4.5 have no RssAnon in status: take smaps_rollup's when this tick read it.
    if (values.rssAnonBytes === null && typeof values.smapsAnonBytes === 'number')
      values.rssAnonBytes = values.smapsAnonBytes;
    values.threads = num(f.get('thr'));
    // Which process of the engine's group this tick measured, and how many the group had
    // (shared/collectors/procfs-sampler-script.ts); absent from samplers before v2 of the line.
    if (f.has('pid')) values.measuredPid = num(f.get('pid'));
    if (f.has('grp')) values.groupProcesses = num(f.get('grp'));
    const statm = (f.get('st') ?? '').split(',').map((s) => num(s));
    const [size = null, resident = null, shared = null] = statm;
    if (statm.length >= 3 && size !== null && resident !== null) {
      values.vmSizeBytes = size * header.pageSizeBytes;
      values.statmResidentBytes = resident * header.pageSizeBytes;
      // Kernels before 4.5 have no RssAnon/RssFile in status: statm's resident - shared.
      if (values.rssBytes === null) values.rssBytes = values.statmResidentBytes;
      if (values.rssFileBytes === null && shared !== null) values.rssFileBytes = shared * header.pageSizeBytes;
      if (values.rssAnonBytes === null && shared !== null)
        values.rssAnonBytes = (resident - shared) * header.pageSizeBytes;
    } else {
      return { kind: 'diagnostic', reason: 'sampler line without statm', text: line };
    }
    const cpu = (f.get('cpu') ?? '').split(',').map((s) => num(s) ?? NaN);
    if (cpu.length >= 4 && cpu.every(Number.isFinite)) {
      if (prevCpu) {
        const d = cpu.map((v, i) => v - (prevCpu![i] ?? 0));
        const total = d.reduce((a, b) => a + b, 0);
        const idle = (d[3] ?? 0) + (d[4] ?? 0); // idle + iowait
        values.cpuBusyPct = total > 0 ? (100 * (total - idle)) / total : null;
      }
      prevCpu = cpu;
    }
    const pc = (f.get('pc') ?? '').split(',').map((s) => num(s) ?? NaN);
    const [utime = NaN, stime = NaN] = pc;
    if (pc.length === 2 && Number.isFinite(utime) && Number.isFinite(stime)) {
      const ticks = utime + stime;
      if (prevProc && uptimeMs > prevProc.uptimeMs) {
        const seconds = (uptimeMs - prevProc.uptimeMs) / 1000;
        values.engineCpuPct = (100 * (ticks - prevProc.ticks)) / header.clockTicksPerSecond / seconds;
      }
      prevProc = { ticks, uptimeMs };
    }
    header.zoneTypes.forEach((type, i) => {
      const milli = num(f.get(`tz${i}`));
      // Power-gated zones fail to read (EAGAIN) and print nothing: keep them as null.
      values[tempKey(type)] = milli === null ? null : milli / 1000;
    });
    header.policies.forEach((policy, i) => {
      values[cpufreqKey(policy)] = num(f.get(`cf${i}`));
      // Samplers before the caps, and a policy whose scaling_max_freq is not readable, say none.
      if (f.has(`cm${i}`)) values[cpufreqCapKey(policy)] = num(f.get(`cm${i}`));
    });
    return { kind: 'sample', uptimeMs, values };
  }

  return {
    get header() {
      return header;
    },
    push(line: string): SamplerRecord | null {
      if (line === '') return null;
      if (line.startsWith('H ')) return parseHeader(line);
      if (line.startsWith('S ')) return parseSample(line);
      return { kind: 'diagnostic', reason: 'not a sampler line', text: line };
    },
    // One line per tick: nothing is held.
    end: (): SamplerRecord[] => [],
  };
}
