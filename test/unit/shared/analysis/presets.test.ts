import { describe, expect, it } from 'vitest';
import { bandwidthBytesPerSecond, DEVICE_PRESETS, findPreset } from '../../../../shared/analysis/presets';

describe('device presets', () => {
  it('cover the boards of the brief, once each', () => {
    const ids = DEVICE_PRESETS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of [
      'jetson-orin-nano-4gb',
      'jetson-orin-nano-8gb',
      'jetson-orin-nx-8gb',
      'jetson-orin-nx-16gb',
      'jetson-agx-orin-32gb',
      'jetson-agx-orin-64gb',
      'rk3588-lpddr4x',
      'rk3588-lpddr5',
      'raspberry-pi-4',
      'raspberry-pi-5',
      'imx8m-plus',
    ]) {
      expect(findPreset(id), id).toBeDefined();
    }
  });

  it('bandwidth agrees with bus width × transfer rate where the memory line states both', () => {
    // e.g. "32-bit LPDDR4X-4267": 4267 MT/s × 4 bytes = 17.07 GB/s
    let checked = 0;
    for (const p of DEVICE_PRESETS) {
      const m = /^(?:(\d+)×)?(\d+)-bit [A-Za-z0-9]+-(\d+)$/.exec(p.memory);
      if (!m) continue;
      const bits = Number(m[1] ?? 1) * Number(m[2]);
      const gbs = ((bits / 8) * Number(m[3])) / 1000;
      expect(Math.abs(p.memBandwidthGBs - gbs) / gbs, p.id).toBeLessThan(0.01);
      checked++;
    }
    expect(checked).toBe(5); // RK3588 ×2, Pi 4, Pi 5, i.MX 8M Plus
  });

  it('trip below critical, every figure cited', () => {
    for (const p of DEVICE_PRESETS) {
      if (p.thermalCriticalC !== null) expect(p.thermalTripC, p.id).toBeLessThan(p.thermalCriticalC);
      expect(p.source.length, p.id).toBeGreaterThan(10);
      expect(p.ramBytes, p.id).toBeGreaterThan(0);
    }
    expect(bandwidthBytesPerSecond({ memBandwidthGBs: 68 })).toBe(68e9);
  });
});
