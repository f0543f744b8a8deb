// Which of a board's power rails give its total power: the one place that knows, per board, which
// rail is the input or which rails add up to the module's input power — and, where neither holds,
// why not in one line. Read by the energy per token (./per-token.ts). Pure.
//
// A board with an input rail: its reading is the total, and every other rail is a part of it.
// - Jetson Nano: POM_5V_IN. NVIDIA (forums.developer.nvidia.com/t/power-consumption-monitoring/73608/8,
//   quoted in rbonghi/jetson_stats issue #51): "POM_5V_IN measures the overall 5V input to the board,
//   it represents the total power consumption. You don't need to add POM_5V_GPU and POM_5V_CPU to it."
// - Jetson Xavier NX, Orin NX and Orin Nano: VDD_IN, beside VDD_CPU_GPU_CV and VDD_SOC (INA3221 at
//   0x40; tegra234-p3767.dtsi in NVIDIA's "[PATCH V3 4/4] arm64: tegra: Add power-sensors for Tegra234
//   boards", linux-tegra, 2023-09-21). NVIDIA (forums.developer.nvidia.com/t/interpretation-of-jetson-nx-
//   power-rail/200883): "VDD_IN is the total power of module. […] There are other parts like DDR and
//   interface power rails are included in VDD_IN domain." TX1 and TX2 print VDD_IN too; Thor's
//   carrier INA238 reads VIN (rbonghi/jetson_stats pull request #900), as may an INA sensor so labelled.
//   jtop takes POM_5V_IN or VDD_IN as the total when there is one (jtop/core/power.py, total_power).
//
// Jetson AGX Orin (P3701): no input rail. Its INA3221s (tegra234-p3701.dtsi, same patch) read
// VDD_GPU_SOC, VDD_CPU_CV and VIN_SYS_5V0 at 0x40, and only VDDQ_VDD2_1V8AO at 0x41 (channels 1 and 3
// "NC", no connection). NVIDIA's rail table (Jetson Linux Developer Guide r36.4.3, Platform Power and
// Performance, Jetson Orin, "Software-Based Power Consumption Modeling"):
//   VDD_GPU_SOC      "Total power consumed by GPU and SOC core which supplies to memory subsystem and
//                     various engines like nvdec, nvenc, vi, vic, isp etc."
//   VDD_CPU_CV       "Total power consumed by CPU and CV cores i.e. DLA and PVA."
//   VIN_SYS_5V0      "Power consumed by system 5V rail which supplies to various IOs e.g. HDMI, USB,
//                     UPHY, UFS, SDMMC, EMMC, DDR etc. VDDQ_VDD2_1V8AO power is also included in
//                     VIN_SYS_5V0 power."
//   VDDQ_VDD2_1V8AO  "Power consumed by DDR core, DDR IO and 1V8AO (Always ON power rail)."
// The module has two inputs, SYS_VIN_HV and SYS_VIN_MV (NVIDIA, forums.developer.nvidia.com/t/jetson-agx-
// orin-ina3221-power-monitor-layout/223111, as summed up in energymon/energymon jetson/JetsonPowerRails.md):
// SYS_VIN_HV supplies the CPU, GPU, SOC and CV (VDD_GPU_SOC, VDD_CPU_CV), SYS_VIN_MV supplies
// VIN_SYS_5V0, which in turn supplies VDDQ_VDD2_1V8AO. So VDD_GPU_SOC + VDD_CPU_CV + VIN_SYS_5V0 is the
// module's input power, and VDDQ_VDD2_1V8AO is never added: it is inside VIN_SYS_5V0 (jtop, which adds
// every rail when there is no VDD_IN, counts it twice).
//
// Jetson AGX Xavier (P2888): no input rail, and no total. Jetson AGX Xavier Series Product Design Guide
// (DG-09840-001 v2.5) §5.6.2: "These monitor the VDD_GPU, VDD_CPU, VDD_SOC (Core), VDD_CV, VDD_DDRQ, and
// SYS_VIN_MV Supplies" (tegrastats: GPU, CPU, SOC at 0x40; CV, VDDRQ, SYS5V at 0x41); Figure 5-14 puts the
// first five on SYS_VIN_HV and SYS5V on the SYS_VIN_MV input. Its Table 5-2 feeds DDR_VDD2_1.1V ("SoC
// VDDIO_VDD2_DDRx and DRAM VDD2 rails") from an LTC3636 on SYS_VIN_HV, a supply none of the six monitors
// is listed for. NVIDIA gives no sum of these rails (forums.developer.nvidia.com/t/what-does-sys5v-power-
// mean-in-tegrastats/75574: SYS5V "includes all parts power except DDR, CPU, GPU and CV").
//
// Any other board without an input rail: its rails are not known to partition anything, so no total.

/** The input rail's name: `VDD_IN`, `POM_5V_IN`, `5V_IN`, `VIN`. */
const INPUT_NAME_RE = /(?:^|_)(?:5V_)?IN$|^VIN$/i;

/** A rail that is not connected (`NC`, and tegrastats' second `NC` kept as `NC#2`): never a reading. */
const UNCONNECTED_RE = /^NC(?:#\d+)?$/;

/** Rails named in a one-line reason before `and N more`. */
const MAX_RAILS_NAMED = 6;

interface ModuleRails {
  /** The module, as a reason names it. */
  module: string;
  /** Rail names only this module prints: one of them present means the board is this module. */
  marks: readonly string[];
  /** The rails whose sum is the module's input power; null when the sources give none. */
  sum: readonly string[] | null;
  /** Why there is no total (`sum` null): one line, after `no input rail: `. */
  why?: string;
}

const MODULES: readonly ModuleRails[] = [
  {
    module: 'AGX Orin',
    marks: ['VDD_GPU_SOC', 'VDD_CPU_CV', 'VIN_SYS_5V0', 'VDDQ_VDD2_1V8AO'],
    // Not VDDQ_VDD2_1V8AO: VIN_SYS_5V0 includes it.
    sum: ['VDD_GPU_SOC', 'VDD_CPU_CV', 'VIN_SYS_5V0'],
  },
  {
    module: 'AGX Xavier',
    marks: ['VDDRQ', 'SYS5V'],
    sum: null,
    why: "the AGX Xavier's GPU, CPU, SOC, CV, VDDRQ and SYS5V leave its DRAM VDD2 supply unmeasured, so their sum is not the module's power",
  },
];

/** Where a board's total power comes from, given the names of the rails it reads (one source's). */
export type TotalPower =
  /** The rails whose readings are the total: the input rail alone, or the rails that add up to it. */
  | { kind: 'rails'; rails: readonly string[] }
  /** No total: why, in one line (`no input rail: …`). */
  | { kind: 'none'; why: string };

function listed(names: readonly string[]): string {
  const shown = names.slice(0, MAX_RAILS_NAMED).join(', ');
  return names.length > MAX_RAILS_NAMED ? `${shown} and ${names.length - MAX_RAILS_NAMED} more` : shown;
}

/** The board's total power from `names` (its rails, from one source); null without a connected rail. */
export function totalPower(names: readonly string[]): TotalPower | null {
  const rails = [...new Set(names)].filter((n) => !UNCONNECTED_RE.test(n)).sort();
  if (rails.length === 0) return null;
  const input = rails.find((n) => INPUT_NAME_RE.test(n));
  if (input !== undefined) return { kind: 'rails', rails: [input] };
  const present = new Set(rails);
  const board = MODULES.find((m) => m.marks.some((n) => present.has(n)));
  if (board?.sum) {
    const absent = board.sum.filter((n) => !present.has(n));
    if (absent.length === 0) return { kind: 'rails', rails: board.sum };
    return {
      kind: 'none',
      why: `no input rail: the ${board.module}'s total is ${board.sum.join(' + ')}, and ${listed(absent)} ${absent.length === 1 ? 'was' : 'were'} not read`,
    };
  }
  if (board?.why) return { kind: 'none', why: `no input rail: ${board.why}` };
  const verb = rails.length === 1 ? 'is' : 'are';
  return { kind: 'none', why: `no input rail: ${listed(rails)} ${verb} not known to add up to the board's power` };
}
