// NVIDIA Jetson's GPU load (nvgpu's `load` attribute: gk20a_load_show prints `%u`, the PMU's busy share in
// tenths of a percent), read through the board transcript parser.
import { describe, expect, it } from 'vitest';
import { diagnostics, ofKind, parse } from '../../../helpers/parser-test-kit';

const lines = (...pasted: string[]) => pasted.join('\n');
const loads = (text: string) =>
  ofKind(parse('thermal', text), 'gpu-load').map((r) => [r.line, r.device, r.loadPct, r.error]);

describe("Jetson GPU load (/sys/devices/gpu.0/load, ‰ of the PMU's sample)", () => {
  it('a real `grep .` of the GPU device on a Jetson Nano: `load:0` is a reading, the other attributes are not', () => {
    // Pasted in https://github.com/hakandundar34coding/system-monitoring-center/issues/45 (comment of 2022-04-19), as there.
    const text = lines(
      'grep . /sys/devices/gpu.0/*',
      '/sys/devices/gpu.0/aelpg_enable:1',
      '/sys/devices/gpu.0/aelpg_param:1000000 100 10000 2000 200',
      '/sys/devices/gpu.0/allow_all:0',
      '/sys/devices/gpu.0/blcg_enable:1',
      '/sys/devices/gpu.0/comptag_mem_deduct:0',
      '/sys/devices/gpu.0/counters:38523066 311638150',
      '/sys/devices/gpu.0/counters_reset:38523066 311648246',
      '/sys/devices/gpu.0/czf_bypass:0',
      'grep: /sys/devices/gpu.0/devfreq: Is a directory',
      'grep: /sys/devices/gpu.0/driver: Is a directory',
      '/sys/devices/gpu.0/driver_override:(null)',
      '/sys/devices/gpu.0/elcg_enable:1',
      '/sys/devices/gpu.0/elpg_enable:1',
      '/sys/devices/gpu.0/emc3d_ratio:750',
      '/sys/devices/gpu.0/enable_3d_scaling:1',
      '/sys/devices/gpu.0/fmax_at_vmin_safe:460800000',
      '/sys/devices/gpu.0/force_idle:0',
      '/sys/devices/gpu.0/freq_request:921600000',
      '/sys/devices/gpu.0/gfxp_wfi_timeout_count:0',
      '/sys/devices/gpu.0/gfxp_wfi_timeout_unit:sysclk',
      '/sys/devices/gpu.0/gpu_powered_on:1',
      'grep: /sys/devices/gpu.0/iommu_group: Is a directory',
      '/sys/devices/gpu.0/is_railgated:no',
      '/sys/devices/gpu.0/ldiv_slowdown_factor:0',
      '/sys/devices/gpu.0/load:0',
      '/sys/devices/gpu.0/max_timeslice_us:50000',
      '/sys/devices/gpu.0/min_timeslice_us:1000',
    );
    expect(loads(text)).toEqual([[26, 'gpu.0', 0, null]]);
    expect(diagnostics(parse('thermal', text))).toEqual([]);
  });

  it('as `cat` gives it (the format: values made up): tenths of a percent, Orin path, a failed read', () => {
    const text = lines(
      'nvidia@nano:~$ cat /sys/devices/gpu.0/load',
      '150',
      'nvidia@orin:~$ cat /sys/devices/platform/gpu.0/load',
      '998',
      'nvidia@orin:~$ cat /sys/devices/platform/gpu.0/load',
      'cat: /sys/devices/platform/gpu.0/load: Resource temporarily unavailable',
      '/sys/devices/gpu.0/load:busy',
    );
    expect(loads(text)).toEqual([
      [2, 'gpu.0', 15, null],
      [4, 'gpu.0', 99.8, null],
      [6, 'gpu.0', null, 'EAGAIN'],
    ]);
    expect(diagnostics(parse('thermal', text)).map((d) => [d.line, d.reason])).toEqual([[7, 'unreadable GPU load']]);
  });
});
