// Single-line firmware and driver readings of small boards → `vc-temp`, `throttled`, `vc-clock`,
// `vc-volts`, `vc-mem`, `pmic-adc`, `npu-load` records:
// - Raspberry Pi `vcgencmd`: measure_temp (`temp=48.3'C`), get_throttled (`throttled=0x50005`),
//   measure_clock (`frequency(48)=…`), measure_volts (`volt=0.8563V`), get_mem (`arm=948M`),
//   pmic_read_adc (Pi 5, `VDD_CORE_A current(7)=2.1A`), and the kernel's `Under-voltage detected!
//   (0x00050005)`.
// - RK3588 `/sys/kernel/debug/rknpu/load`: `NPU load:  Core0:  4%, Core1:  0%,` or `NPU load:  0%`.
// Each line stands alone (no state), so the stateful dump reader in shared/parsers/thermal-parsers.ts
// asks here first and flushes what it holds before the reading.

import { diagnostic, type Diagnostic, type ThermalRecordKind } from './records';
import { decodeThrottled } from './sysfs-values';

const VC_TEMP_RE = /^temp=(-?\d+(?:\.\d+)?)'C\s*$/;
const VC_THROTTLED_RE = /^throttled=(0x[0-9a-fA-F]+|\d+)\s*$/;
const VC_CLOCK_RE = /^frequency\((\d+)\)=(\d+)\s*$/;
const VC_VOLTS_RE = /^volt=(\d+(?:\.\d+)?)V\s*$/;
/** `get_mem arm` → `arm=948M` (MiB; the types of vcgencmd's get_mem, older and newer firmware). */
const VC_MEM_RE = /^(arm|gpu|malloc_total|malloc|reloc_total|reloc)=(\d+)M\s*$/;
/** What a get_mem line opens with: a line that does and does not read is a diagnostic. */
const VC_MEM_PREFIX_RE = /^(?:arm|gpu|malloc_total|malloc|reloc_total|reloc)=\d/;
/**
 * The name a loop printed before each answer (elinux.org's RPI vcgencmd usage: `echo -e "$src:\t$(vcgencmd
 * measure_clock $src)"` → `arm:\tfrequency(45)=600062000`, `core:\tvolt=1.2375V`): the reading is the rest.
 */
const VC_LABEL_RE = /^([\w.-]+):\s*(?=temp=|throttled=|frequency\(|volt=)/;
/** A vcgencmd answer none of the above reads: a diagnostic, not prose. */
const VC_PREFIX_RE = /^(?:temp=|throttled=|frequency\(|volt=)/;
/**
 * vcgencmd's failures instead of a reading. Anywhere in the line (pastes wrap it: `Error:   VCHI initialization
 * failed.`, a log's `Command failed: … VCHI initialization failed`): `VCHI initialization failed` (no access to
 * /dev/vchiq, older userland), `failed to open vchiq instance` (newer userland, with or without a leading `* `).
 * At the start: the firmware's `error=2 error_msg="Invalid arguments"` / `error=1 error_msg="Command not
 * registered"`, and the shell's `vcgencmd: command not found` / `-bash: vcgencmd: …`.
 */
const VC_ERROR_ANYWHERE_RE = /VCHI initialization failed|failed to open vchiq instance/i;
const VC_ERROR_START_RE = /^(?:error=\d+\s+error_msg=|(?:-?\w*sh: (?:line \d+: )?)?vcgencmd: )/;
const PMIC_RE = /^\s*(\S+)\s+(current|volt)\((\d+)\)=(\d+(?:\.\d+)?)([AV])\s*$/;
const KERNEL_UV_RE = /(?:Under-voltage detected!|Voltage normalised)\s*\((0x[0-9a-fA-F]+)\)/;
/** Anywhere in the line: pastes quote it (`` `NPU load:  0%` `` in a markdown list); a closing backtick ends it. */
const NPU_RE = /NPU load:([^`]*)/;
/** rknpu's load is busy time over its interval: above 100 the driver's counter wrapped (`Core2: 429496%`). */
const MAX_NPU_LOAD_PCT = 100;

type Reading = ThermalRecordKind | Diagnostic;

/** The text after `NPU load:` (or the whole rknpu/load file) → one `npu-load` record, or a diagnostic. */
export function readNpuLoad(rest: string, line: number, raw: string): Reading[] {
  // rknpu_debugger.c prints ` Core%d: ` then `%2.d%%,` per core (`%2.d%%` alone on single-core SoCs): every
  // `CoreN:` must have its percentage, or the line is not read at all (a core silently missing would shift the rest).
  const named = rest.match(/Core\d+:/g)?.length ?? 0;
  const cores = [...rest.matchAll(/Core\d+:\s*(\d+)%/g)].map((m) => Number(m[1]));
  if (named > 0 && cores.length !== named) return [diagnostic(line, 'unreadable NPU load', raw)];
  const single = named === 0 ? /^(?:NPU load:\s*)?(\d+)%$/.exec(rest.trim()) : null;
  const pct = single ? [Number(single[1])] : cores;
  if (pct.length === 0) return [diagnostic(line, 'unreadable NPU load', raw)];
  if (pct.some((p) => p > MAX_NPU_LOAD_PCT))
    return [diagnostic(line, 'NPU load above 100% (the driver counter wrapped)', raw)];
  return [{ kind: 'npu-load', line, corePct: pct }];
}

/**
 * `t` is the trimmed line, `text` the line with its indentation (PMIC and kernel lines are matched
 * on it). `readings` are what the line says; `unreadable` a vcgencmd answer that cannot be read
 * (the caller keeps what it holds open); null when the line is none of these.
 */
export function readFirmwareLine(
  t: string,
  text: string,
  line: number,
  raw: string,
): { readings: Reading[] } | { unreadable: Diagnostic } | null {
  let m: RegExpExecArray | null;
  const labelled = VC_LABEL_RE.exec(t);
  if (labelled) {
    const found = readFirmwareLine(t.slice(labelled[0].length), text, line, raw);
    const label = labelled[1] ?? '';
    if (found && 'readings' in found)
      for (const r of found.readings) if (r.kind === 'vc-clock' || r.kind === 'vc-volts') r.label = label;
    return found;
  }
  if ((m = VC_TEMP_RE.exec(t))) return { readings: [{ kind: 'vc-temp', line, tempC: Number(m[1]) }] };
  if ((m = VC_THROTTLED_RE.exec(t))) {
    const v = m[1] ?? '';
    const bits = v.startsWith('0x') ? parseInt(v.slice(2), 16) : Number(v);
    return { readings: [decodeThrottled(bits, v, 'vcgencmd', line)] };
  }
  if ((m = VC_CLOCK_RE.exec(t)))
    return { readings: [{ kind: 'vc-clock', line, clockId: Number(m[1]), freqHz: Number(m[2]) }] };
  if ((m = VC_VOLTS_RE.exec(t))) return { readings: [{ kind: 'vc-volts', line, volts: Number(m[1]) }] };
  if ((m = VC_MEM_RE.exec(t)))
    return { readings: [{ kind: 'vc-mem', line, type: m[1] ?? '', bytes: Number(m[2]) * 1024 * 1024 }] };
  if (VC_PREFIX_RE.test(t) || VC_MEM_PREFIX_RE.test(t))
    return { unreadable: diagnostic(line, 'unreadable vcgencmd output', raw) };
  if (VC_ERROR_ANYWHERE_RE.test(t) || VC_ERROR_START_RE.test(t))
    return { unreadable: diagnostic(line, 'vcgencmd error', raw) };
  if ((m = PMIC_RE.exec(text))) {
    const pmic: Reading = {
      kind: 'pmic-adc',
      line,
      rail: m[1] ?? '',
      channel: Number(m[3]),
      quantity: m[2] as 'current' | 'volt',
      value: Number(m[4]),
      unit: m[5] as 'A' | 'V',
    };
    return { readings: [pmic] };
  }
  if ((m = KERNEL_UV_RE.exec(text)))
    return { readings: [decodeThrottled(parseInt((m[1] ?? '').slice(2), 16), m[1] ?? '', 'kernel', line)] };
  if ((m = NPU_RE.exec(t))) return { readings: readNpuLoad((m[1] ?? '').trim(), line, raw) };
  return null;
}
