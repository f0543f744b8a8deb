// NVIDIA Jetson GPU load → `gpu-load` records (read inside shared/parsers/thermal-parsers.ts, which hands it each
// sysfs path and value, from `grep .`, `cat` or `head`). nvgpu's gk20a_load_show prints `%u`: the PMU's busy
// sample divided by 10, so tenths of a percent (0–1000; 0 while the GPU is powered off). The attribute sits on
// the GPU's platform device: `/sys/devices/gpu.0/load` (Nano, TX2, Xavier), `/sys/devices/platform/gpu.0/load`
// (Xavier NX, Orin). A devfreq device's `load` (`/sys/…/devfreq/<dev>/load`, Rockchip's `N@FHz`) is not this one.
import { diagnostic, type Diagnostic, type GpuLoadRecord } from './records';
import { errnoName } from './sysfs-values';

const GPU_LOAD_PATH_RE = /^\/sys\/devices\/(?:\S+\/)?(gpu\.0|[\da-f]+\.(?:gpu|gm20b|gp10b|gv11b|ga10b))\/load$/;
/** nvgpu's unit: the PMU sample (0–10000) divided by 10. */
const PER_MILLE_PER_PCT = 10;

/** nvgpu's `load` of a Jetson GPU. */
export const isGpuLoadPath = (path: string): boolean => GPU_LOAD_PATH_RE.test(path) && !path.includes('/devfreq/');

/** The value (or read error) of a sysfs file: null when the path is no Jetson GPU load. */
export function readGpuLoad(
  path: string,
  value: string,
  error: string | null,
  lineNo: number,
  raw: string,
): Array<GpuLoadRecord | Diagnostic> | null {
  const m = isGpuLoadPath(path) ? GPU_LOAD_PATH_RE.exec(path) : null;
  if (!m) return null;
  const v = value.trim();
  if (error === null && !/^\d+$/.test(v)) return [diagnostic(lineNo, 'unreadable GPU load', raw)];
  return [
    {
      kind: 'gpu-load',
      line: lineNo,
      device: m[1] ?? '',
      loadPct: error === null ? Number(v) / PER_MILLE_PER_PCT : null,
      error: error === null ? null : errnoName(error),
    },
  ];
}
