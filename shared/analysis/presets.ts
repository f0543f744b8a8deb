// Device presets: RAM, peak DRAM bandwidth and thermal trip defaults of the boards KVScope is
// for. They feed the roofline (decode ceiling = bandwidth / bytes read per token) and the
// throttle detector when a board's own values are unknown. What a probe reads on the board
// (MemTotal, thermal_zone*/trip_point_*_temp, devfreq tables) always wins over a preset.
//
// Bandwidth = transfer rate × bus width, as the vendor's datasheet states it (decimal GB/s);
// each entry cites its figure. It is a peak: sustained reads reach roughly 60–85% of it, which is
// why the roofline reports an efficiency rather than expecting the ceiling.

export interface DevicePreset {
  id: string;
  name: string;
  /** RAM of this variant (boards sold in several sizes name the one assumed). */
  ramBytes: number;
  /** Peak DRAM bandwidth, decimal GB/s. */
  memBandwidthGBs: number;
  memory: string;
  /** Temperature at which the board starts to throttle by default, °C. */
  thermalTripC: number;
  /** Temperature of the critical trip (shutdown), °C, when documented. */
  thermalCriticalC: number | null;
  /** Where the bandwidth figure comes from. */
  source: string;
  notes?: string;
}

const GiB = 1024 ** 3;

export const DEVICE_PRESETS: readonly DevicePreset[] = [
  {
    id: 'jetson-orin-nano-4gb',
    name: 'Jetson Orin Nano 4GB',
    ramBytes: 4 * GiB,
    // NVIDIA Jetson Orin Nano Series Data Sheet: "ON 4GB: 4GB 64-bit LPDDR5", 34 GB/s.
    memBandwidthGBs: 34,
    memory: '64-bit LPDDR5',
    // L4T r35/r36 Orin device trees: software throttling trip at 99 °C on cpu/gpu/soc zones, shutdown ≈ 104.5 °C.
    thermalTripC: 99,
    thermalCriticalC: 104.5,
    source: 'NVIDIA Jetson Orin Nano Series Data Sheet (34 GB/s); JetPack 6.1 "Super" modes raise it to 51 GB/s',
  },
  {
    id: 'jetson-orin-nano-8gb',
    name: 'Jetson Orin Nano 8GB',
    ramBytes: 8 * GiB,
    // NVIDIA Jetson Orin Nano Series Data Sheet: "ON 8GB: 8GB 128-bit LPDDR5", 68 GB/s.
    memBandwidthGBs: 68,
    memory: '128-bit LPDDR5',
    thermalTripC: 99,
    thermalCriticalC: 104.5,
    source:
      'NVIDIA Jetson Orin Nano Series Data Sheet (68 GB/s); Orin Nano Super Developer Kit data sheet: 102 GB/s in MAXN SUPER (JetPack 6.1+)',
  },
  {
    id: 'jetson-orin-nx-8gb',
    name: 'Jetson Orin NX 8GB',
    ramBytes: 8 * GiB,
    // NVIDIA Jetson Orin NX Series Data Sheet: 128-bit LPDDR5, 102.4 GB/s (both 8GB and 16GB).
    memBandwidthGBs: 102.4,
    memory: '128-bit LPDDR5',
    thermalTripC: 99,
    thermalCriticalC: 104.5,
    source: 'NVIDIA Jetson Orin NX Series Data Sheet (102.4 GB/s)',
  },
  {
    id: 'jetson-orin-nx-16gb',
    name: 'Jetson Orin NX 16GB',
    ramBytes: 16 * GiB,
    memBandwidthGBs: 102.4,
    memory: '128-bit LPDDR5',
    thermalTripC: 99,
    thermalCriticalC: 104.5,
    source: 'NVIDIA Jetson Orin NX Series Data Sheet (102.4 GB/s)',
  },
  {
    id: 'jetson-agx-orin-32gb',
    name: 'Jetson AGX Orin 32GB',
    ramBytes: 32 * GiB,
    // NVIDIA Jetson AGX Orin Series Data Sheet: 256-bit LPDDR5, 204.8 GB/s (32GB and 64GB).
    memBandwidthGBs: 204.8,
    memory: '256-bit LPDDR5',
    thermalTripC: 99,
    thermalCriticalC: 104.5,
    source: 'NVIDIA Jetson AGX Orin Series Data Sheet (204.8 GB/s)',
  },
  {
    id: 'jetson-agx-orin-64gb',
    name: 'Jetson AGX Orin 64GB',
    ramBytes: 64 * GiB,
    memBandwidthGBs: 204.8,
    memory: '256-bit LPDDR5',
    thermalTripC: 99,
    thermalCriticalC: 104.5,
    source: 'NVIDIA Jetson AGX Orin Series Data Sheet (204.8 GB/s)',
  },
  {
    id: 'rk3588-lpddr4x',
    name: 'Rockchip RK3588 (LPDDR4x)',
    ramBytes: 8 * GiB,
    // RK3588 datasheet: four 16-bit channels (64-bit); vendor dmc OPP top 2112 MHz → 4224 MT/s × 8 B = 33.8 GB/s
    // (dmc trans_stat of an Orange Pi 5, sbc-bench results/4D0a.txt).
    memBandwidthGBs: 33.8,
    memory: '4×16-bit LPDDR4x-4224',
    // Rockchip vendor device tree: soc-thermal passive trip 85 °C, critical 115 °C ("crit = +115.0 C" in lm-sensors).
    thermalTripC: 85,
    thermalCriticalC: 115,
    source: 'RK3588 datasheet (4×16-bit LPDDR4/4x/5) with the 2112 MHz dmc OPP: 4224 MT/s × 64 bit = 33.8 GB/s',
    notes: 'Boards ship with 4–32 GB; the device check reads MemTotal.',
  },
  {
    id: 'rk3588-lpddr5',
    name: 'Rockchip RK3588 (LPDDR5)',
    ramBytes: 16 * GiB,
    // Vendor dmc OPP top 2400 MHz on LPDDR5 boards (Orange Pi 5 Max, sbc-bench results/XyIw.txt) → 4800 MT/s × 8 B = 38.4 GB/s.
    memBandwidthGBs: 38.4,
    memory: '4×16-bit LPDDR5-4800',
    thermalTripC: 85,
    thermalCriticalC: 115,
    source: 'RK3588 datasheet (4×16-bit channels) with the 2400 MHz LPDDR5 dmc OPP: 4800 MT/s × 64 bit = 38.4 GB/s',
    notes: 'Boards ship with 4–32 GB; the device check reads MemTotal.',
  },
  {
    id: 'raspberry-pi-4',
    name: 'Raspberry Pi 4 Model B',
    ramBytes: 4 * GiB,
    // Raspberry Pi 4 Model B product brief: "LPDDR4-3200 SDRAM", 32-bit bus → 3200 MT/s × 4 B = 12.8 GB/s.
    memBandwidthGBs: 12.8,
    memory: '32-bit LPDDR4-3200',
    // Raspberry Pi firmware: soft throttling from 80 °C, hard limit 85 °C (get_throttled bits 1–3).
    thermalTripC: 85,
    thermalCriticalC: null,
    source: 'Raspberry Pi 4 Model B product brief (LPDDR4-3200, 32-bit): 12.8 GB/s',
    notes: 'Sold with 1, 2, 4 or 8 GB.',
  },
  {
    id: 'raspberry-pi-5',
    name: 'Raspberry Pi 5',
    ramBytes: 8 * GiB,
    // Raspberry Pi 5 product brief: "LPDDR4X-4267 SDRAM", 32-bit bus → 4267 MT/s × 4 B = 17.1 GB/s.
    memBandwidthGBs: 17.1,
    memory: '32-bit LPDDR4X-4267',
    thermalTripC: 85,
    thermalCriticalC: null,
    source: 'Raspberry Pi 5 product brief (LPDDR4X-4267, 32-bit): 17.1 GB/s',
    notes: 'Sold with 2, 4, 8 or 16 GB.',
  },
  {
    id: 'imx8m-plus',
    name: 'NXP i.MX 8M Plus',
    ramBytes: 4 * GiB,
    // i.MX 8M Plus datasheet / fact sheet: 32-bit LPDDR4 up to 4000 MT/s → 4000 MT/s × 4 B = 16.0 GB/s.
    memBandwidthGBs: 16,
    memory: '32-bit LPDDR4-4000',
    // imx8mp.dtsi thermal zones: passive (cpu-alert) 85 °C, critical 95 °C for commercial-grade parts.
    thermalTripC: 85,
    thermalCriticalC: 95,
    source: 'NXP i.MX 8M Plus datasheet (32-bit LPDDR4-4000 / DDR4-3200): 16.0 GB/s',
    notes: 'Industrial-grade parts trip at 95/105 °C.',
  },
];

export function findPreset(id: string): DevicePreset | undefined {
  return DEVICE_PRESETS.find((p) => p.id === id);
}

/** Peak bandwidth in bytes per second (decimal GB). */
export function bandwidthBytesPerSecond(preset: Pick<DevicePreset, 'memBandwidthGBs'>): number {
  return preset.memBandwidthGBs * 1e9;
}
