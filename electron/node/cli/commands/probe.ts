// `kvscope probe <target> [--json] [--benchmark] [ssh options]` (docs/DESIGN.md): the board's facts and
// the health findings. With --json exactly one JSON document `{...probe, target, findings}` on
// stdout; progress (connecting, host key added) on stderr; a failure is one line, exit 1
// (unreachable, refused host key, authentication) or 2 (usage).
import { alarmReadingText, isAlarmLevelZone } from '../../../../shared/analysis/alarm-sensors';
import { CliError, type CliIo, parseCliArgs } from '../cli-io';
import {
  createTarget,
  createTargetOptionsFromCli,
  sshCliOptions,
  TargetSpecError,
  targetFromCli,
} from '../../transport/target-spec';
import { probeTarget } from '../../probe/probe';
import { healthFindings } from '../../../../shared/probe/health';
import type { HealthFinding, ProbeReport, ProbeResult } from '../../../../shared/probe/probe-schema';
import type { Target } from '../../transport/target';

const options = {
  ...sshCliOptions,
  json: { type: 'boolean' },
  /** Judge clocks and background load as for a benchmark run. */
  benchmark: { type: 'boolean' },
} as const;

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCliArgs(args, options);
  if (positionals.length !== 1)
    throw new CliError('expected exactly one target (local, user@host[:port], ssh://…, or a ~/.ssh/config alias)', 2);
  let spec;
  try {
    spec = await targetFromCli(positionals[0], values);
  } catch (error) {
    if (error instanceof TargetSpecError) throw new CliError(error.message, 2);
    throw error;
  }
  let target: Target;
  try {
    // io.signal: Ctrl-C abandons the connection (a board that answers nothing held it for 20 s).
    target = await createTarget(spec, {
      ...createTargetOptionsFromCli(values, values.json ? (line) => io.err(`${line}\n`) : (line) => progress(io, line)),
      signal: io.signal,
    });
  } catch (error) {
    throw new CliError(io.signal.aborted ? 'interrupted' : oneLine(error));
  }
  try {
    const probe = await probeTarget(target, { signal: io.signal });
    const findings = healthFindings(probe, { benchmarking: values.benchmark === true });
    const report: ProbeReport = {
      ...probe,
      target: { id: target.id, label: target.label, kind: target.kind },
      findings,
    };
    if (values.json) io.out(JSON.stringify(report, null, 2) + '\n');
    else io.out(human(report, probe, findings));
    return 0; // findings are facts about the board, not a failure of the command
  } catch (error) {
    throw new CliError(io.signal.aborted ? 'interrupted' : oneLine(error));
  } finally {
    await target.close().catch(() => undefined);
  }
}

function progress(io: CliIo, line: string): void {
  // Only what a user wants to see while waiting; the rest is for --json's stderr / debugging.
  if (
    /^(?:connecting to|added the host key|known_hosts:|--password-env|~\/\.ssh\/config)/.test(line) ||
    process.env.KVSCOPE_DEBUG
  )
    io.err(`${line}\n`);
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? '';
}

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
function bytes(b: number | null | undefined): string {
  if (b === null || b === undefined) return '?';
  return b >= GiB ? `${(b / GiB).toFixed(2)} GiB` : `${(b / MiB).toFixed(0)} MiB`;
}
function mhz(k: number | null): string {
  return k === null ? '?' : `${Math.round(k / 1000)} MHz`;
}

function human(report: ProbeReport, p: ProbeResult, findings: HealthFinding[]): string {
  const lines: string[] = [];
  const row = (k: string, v: string) => lines.push(`  ${k.padEnd(14)} ${v}`);
  lines.push(`${report.target.label}`);
  row('board', p.boardModel ?? '(no device-tree model)');
  row('system', `${p.distro ?? '?'}, kernel ${p.kernel ?? '?'} (${p.arch ?? '?'})`);
  if (p.jetson.l4tRelease) row('L4T', p.jetson.l4tRelease.replace(/^#\s*/, ''));
  row('cpu', `${p.cpu.count ?? '?'} online (${p.cpu.online ?? '?'})${p.cpu.modelName ? ', ' + p.cpu.modelName : ''}`);
  for (const pol of p.cpu.policies)
    row(
      `  ${pol.policy}`,
      `CPUs ${pol.cpus.join(',')}: ${pol.governor ?? '?'}, ${mhz(pol.curKHz)} (${mhz(pol.minKHz)}–${mhz(pol.maxKHz)}, hw max ${mhz(pol.hwMaxKHz)})`,
    );
  row(
    'memory',
    `${bytes(p.memory.totalBytes)} RAM, ${bytes(p.memory.availableBytes)} available${p.memory.availableEstimated ? ' (estimated)' : ''}`,
  );
  const zram = p.zram.map((z) =>
    z.disksizeBytes
      ? `${z.device} ${bytes(z.disksizeBytes)} ${z.algorithm ?? ''}${z.usedAsSwap ? ' (swap)' : ''}`
      : `${z.device} unconfigured`,
  );
  row(
    'swap',
    `${p.memory.swapTotalBytes ? bytes(p.memory.swapTotalBytes) : 'none'}${zram.length ? `; zram: ${zram.join(', ')}` : ''}`,
  );
  if (Object.keys(p.memory.nvmapBytes).length)
    row(
      'NvMap',
      Object.entries(p.memory.nvmapBytes)
        .map(([k, v]) => `${k} ${bytes(v)}`)
        .join(', '),
    );
  row('page size', p.pageSizeBytes ? `${p.pageSizeBytes / 1024} KiB` : '?');
  row('THP', `enabled=${p.thp.enabled ?? '?'} defrag=${p.thp.defrag ?? '?'}`);
  row(
    'cgroup',
    p.cgroup.version === null
      ? '?'
      : `v${p.cgroup.version} ${p.cgroup.path ?? ''}, memory limit ${p.cgroup.memoryLimitBytes === null ? 'none' : bytes(p.cgroup.memoryLimitBytes)}`,
  );
  row(
    'perf',
    p.perf.path
      ? `${p.perf.version ?? p.perf.path}, perf_event_paranoid=${p.perf.eventParanoid ?? '?'}`
      : 'not installed',
  );
  const present = Object.entries(p.tools)
    .filter(([, v]) => v)
    .map(([k]) => k);
  row('tools', present.join(', ') || 'none of the known ones');
  if (p.nodeVersion) row('node', p.nodeVersion);
  for (const z of p.thermal) {
    const trips = z.trips
      .filter((t) => t.tempC !== null)
      .map((t) => `${t.type ?? t.name} ${t.tempC}°C`)
      .join(', ');
    // The Jetson PMIC's die zone: the alarm it says, not a temperature (shared/analysis/alarm-sensors.ts).
    const reading =
      z.tempC === null ? '?' : isAlarmLevelZone(z.type) ? alarmReadingText(z.tempC) : `${z.tempC.toFixed(1)} °C`;
    row('thermal', `${z.type ?? z.zone}: ${z.unreadable ? 'unreadable' : reading}${trips ? ` (trips: ${trips})` : ''}`);
  }
  for (const d of p.devfreq)
    row(
      'devfreq',
      `${d.name} (${d.kind}): ${d.governor ?? '?'}, ${d.curHz === null ? '?' : Math.round(d.curHz / 1e6) + ' MHz'} of ${d.maxHz === null ? '?' : Math.round(d.maxHz / 1e6) + ' MHz'}`,
    );
  if (p.tmpDisk) row('/tmp free', `${bytes(p.tmpDisk.availableBytes)} of ${bytes(p.tmpDisk.totalBytes)}`);
  if (p.uptimeSec !== null) row('uptime', `${(p.uptimeSec / 3600).toFixed(1)} h, load ${p.loadAvg?.join(' ') ?? '?'}`);
  lines.push('');
  if (findings.length === 0) lines.push('No findings: the board is ready.');
  for (const f of findings) {
    lines.push(`[${f.severity}] ${f.title}`);
    lines.push(`    ${f.detail}`);
    if (f.fix) lines.push(`    fix: ${f.fix}`);
  }
  return lines.join('\n') + '\n';
}
