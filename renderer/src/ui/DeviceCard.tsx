// The device card: what "Test & probe" learned about the selected board (shared/probe's
// ProbeResult) and the health findings, each with its fix as a command to copy. Shown above the
// chart, because these facts (THP, swap, cgroup limit, governor, heat) change how the run reads.
import { alarmReadingText, isAlarmLevelZone } from '../../../shared/analysis/alarm-sensors';
import { useRef, useState, type ReactNode } from 'react';
import type { HealthFinding } from '../../../shared/probe/probe-schema';
import {
  formatBytes,
  formatFreqHz,
  formatFreqKHz,
  formatSeconds,
  formatTempC,
  MISSING,
} from '../../../shared/format/units';
import type { ProbeOutcome } from '../state/types';
import { useAppStore } from './store-context';

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </>
  );
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="device-group">
      <h3 className="subhead">{title}</h3>
      <dl className="kv-list">{children}</dl>
    </div>
  );
}

const present = (path: string | null | undefined) =>
  path ? <span className="ok-text">yes</span> : <span className="muted">no</span>;

function CopyButton({ text, select }: { text: string; select: () => void }) {
  const [state, setState] = useState<'idle' | 'copied' | 'select'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      // The desktop shell refuses clipboard permissions to pages; a selection copy needs none.
      select();
      setState(document.execCommand?.('copy') ? 'copied' : 'select');
    }
  };
  return (
    <button type="button" className="link-button copy-button" onClick={() => void copy()} title="Copy the command">
      {state === 'copied' ? 'Copied' : state === 'select' ? 'Select & Ctrl+C' : 'Copy'}
    </button>
  );
}

/**
 * shared/probe/health.ts writes a fix either as a command (lower-case first word, maybe a note
 * after three spaces: "sudo sysctl -w …   (permanent: …)") or as a sentence ("Let the board
 * cool down…"). Only the command part is offered for copying.
 */
export function splitFix(fix: string): { command: string | null; note: string | null } {
  if (/^[A-Z]/.test(fix)) return { command: null, note: fix };
  // indexOf, not a regex: a lazy prefix before `\s{3,}` backtracks quadratically on long blanks.
  const at = fix.indexOf('   (');
  const end = fix.trimEnd();
  if (at < 0 || !end.endsWith(')')) return { command: fix, note: null };
  return { command: fix.slice(0, at).trimEnd(), note: end.slice(at + 4, -1) };
}

function Finding({ finding }: { finding: HealthFinding }) {
  const code = useRef<HTMLElement>(null);
  const select = () => {
    if (code.current) window.getSelection()?.selectAllChildren(code.current);
  };
  const fix = finding.fix ? splitFix(finding.fix) : null;
  return (
    <li
      className={`finding finding-${finding.severity}`}
      data-testid={`finding-${finding.id}`}
      data-severity={finding.severity}
    >
      <span className={`severity severity-${finding.severity}`}>{finding.severity}</span>
      <div className="finding-body">
        <div className="finding-title">{finding.title}</div>
        <div className="finding-detail">{finding.detail}</div>
        {fix?.command && (
          <div className="finding-fix">
            <code ref={code} className="mono" data-testid={`fix-${finding.id}`} onClick={select}>
              {fix.command}
            </code>
            <CopyButton text={fix.command} select={select} />
          </div>
        )}
        {fix?.note && <div className="finding-note">{fix.command ? fix.note : <>Fix: {fix.note}</>}</div>}
      </div>
    </li>
  );
}

function Facts({ result }: { result: ProbeOutcome }) {
  const p = result.probe;
  const mem = p.memory;
  const swapUsed =
    mem.swapTotalBytes !== null && mem.swapFreeBytes !== null ? mem.swapTotalBytes - mem.swapFreeBytes : null;
  const zram = p.zram.filter((z) => z.disksizeBytes);
  const throttled = p.raspberryPi.throttledBits;
  return (
    <div className="device-facts">
      <Group title="System">
        <Fact label="Board" testId="device-board">
          {p.boardModel ?? <span className="muted">no device-tree model</span>}
        </Fact>
        <Fact label="Arch" testId="device-arch">
          {p.arch ?? MISSING}
        </Fact>
        <Fact label="Kernel" testId="device-kernel">
          {p.kernel ?? MISSING}
        </Fact>
        <Fact label="Distro" testId="device-distro">
          {p.distro ?? MISSING}
        </Fact>
        {p.jetson.l4tRelease && <Fact label="L4T">{p.jetson.l4tRelease.replace(/^#\s*/, '')}</Fact>}
        <Fact label="Host">
          {p.hostname ?? MISSING} · {p.user ?? '?'}
        </Fact>
        <Fact label="Uptime">
          {formatSeconds(p.uptimeSec)}
          {p.loadAvg ? ` · load ${p.loadAvg.map((l) => l.toFixed(2)).join(' ')}` : ''}
        </Fact>
      </Group>
      <Group title="CPU">
        <Fact label="Cores" testId="device-cores">
          {p.cpu.count ?? '?'} online{p.cpu.online ? ` (${p.cpu.online})` : ''}
        </Fact>
        {p.cpu.modelName && <Fact label="Model">{p.cpu.modelName}</Fact>}
        {p.cpu.policies.length === 0 && <Fact label="Clocks">no cpufreq</Fact>}
        {p.cpu.policies.map((pol) => (
          <Fact key={pol.policy} label={`${pol.policy}`}>
            <span className="mono small">CPUs {pol.cpus.join(',') || '?'}</span> · {pol.governor ?? '?'} ·{' '}
            {formatFreqKHz(pol.curKHz)} ({formatFreqKHz(pol.minKHz)}–{formatFreqKHz(pol.maxKHz)}
            {pol.hwMaxKHz !== null && pol.hwMaxKHz !== pol.maxKHz ? `, hw ${formatFreqKHz(pol.hwMaxKHz)}` : ''})
          </Fact>
        ))}
      </Group>
      <Group title="Memory">
        <Fact label="RAM" testId="device-ram">
          {formatBytes(mem.totalBytes)} · {formatBytes(mem.availableBytes)} available
          {mem.availableEstimated ? ' (est.)' : ''}
        </Fact>
        <Fact label="Swap" testId="device-swap">
          {mem.swapTotalBytes ? `${formatBytes(mem.swapTotalBytes)} · ${formatBytes(swapUsed)} used` : 'none'}
        </Fact>
        <Fact label="zram">
          {zram.length
            ? zram
                .map(
                  (z) =>
                    `${z.device} ${formatBytes(z.disksizeBytes)} ${z.algorithm ?? ''}${z.usedAsSwap ? ' (swap)' : ''}`,
                )
                .join(', ')
            : p.zram.length
              ? 'unconfigured'
              : 'none'}
        </Fact>
        {Object.keys(mem.nvmapBytes).length > 0 && (
          <Fact label="NvMap">
            {Object.entries(mem.nvmapBytes)
              .map(([k, v]) => `${k} ${formatBytes(v)}`)
              .join(', ')}
          </Fact>
        )}
        <Fact label="Page size" testId="device-page-size">
          {p.pageSizeBytes ? formatBytes(p.pageSizeBytes) : MISSING}
        </Fact>
        <Fact label="THP" testId="device-thp">
          {p.thp.enabled ?? '?'} <span className="muted small">(defrag {p.thp.defrag ?? '?'})</span>
        </Fact>
        <Fact label="cgroup" testId="device-cgroup">
          {p.cgroup.version === null
            ? MISSING
            : `v${p.cgroup.version} · ${p.cgroup.memoryLimitBytes === null ? 'no memory limit' : `limit ${formatBytes(p.cgroup.memoryLimitBytes)}`}`}
        </Fact>
      </Group>
      <Group title="Tools and sensors">
        <Fact label="perf" testId="device-perf">
          {p.perf.path ? (
            `${p.perf.usable === false ? 'broken' : (p.perf.version ?? 'yes')}`
          ) : (
            <span className="muted">not installed</span>
          )}
          {p.perf.eventParanoid !== null ? ` · paranoid ${p.perf.eventParanoid}` : ''}
        </Fact>
        <Fact label="tegrastats">{present(p.tools.tegrastats)}</Fact>
        <Fact label="vcgencmd">
          {present(p.tools.vcgencmd)}
          {throttled !== null ? <span className="mono small"> · throttled 0x{throttled.toString(16)}</span> : null}
        </Fact>
        <Fact label="node">{p.nodeVersion ?? <span className="muted">not installed</span>}</Fact>
        <Fact label="/tmp free" testId="device-tmp">
          {p.tmpDisk ? `${formatBytes(p.tmpDisk.availableBytes)} of ${formatBytes(p.tmpDisk.totalBytes)}` : MISSING}
        </Fact>
        {p.thermal.length === 0 && <Fact label="Thermal">no zones</Fact>}
        {p.thermal.map((z) => {
          const trip = z.trips.find(
            (t) => t.tempC !== null && (t.type === 'passive' || t.type === 'hot' || t.type === 'critical'),
          );
          return (
            <Fact key={z.zone} label={z.type ?? z.zone}>
              {z.unreadable ? (
                <span className="muted">unreadable</span>
              ) : isAlarmLevelZone(z.type) && z.tempC !== null ? (
                // The Jetson PMIC's die zone: an alarm level, not a temperature (shared/analysis/alarm-sensors.ts).
                alarmReadingText(z.tempC)
              ) : (
                formatTempC(z.tempC)
              )}
              {trip ? (
                <span className="muted small">
                  {' '}
                  · {trip.type} at {formatTempC(trip.tempC)}
                </span>
              ) : null}
            </Fact>
          );
        })}
        {p.devfreq.map((d) => (
          <Fact key={d.name} label={`${d.kind} clock`}>
            <span className="mono small">{d.name}</span> · {d.governor ?? '?'} · {formatFreqHz(d.curHz)} of{' '}
            {formatFreqHz(d.maxHz)}
          </Fact>
        ))}
      </Group>
    </div>
  );
}

export function DeviceCard() {
  const board = useAppStore((s) => s.boards.find((b) => b.id === s.selectedBoardId));
  const probe = useAppStore((s) => (s.selectedBoardId ? s.probes[s.selectedBoardId] : undefined));
  const probeBoard = useAppStore((s) => s.probeBoard);
  const runStarting = useAppStore((s) => s.run.phase === 'starting');
  const probedAt = probe?.status === 'done' ? probe.result.probedAt : null;
  // A run makes the chart what matters: fold the card to its summary line. A new probe opens it.
  // Adjusted while rendering when either changes (React's pattern for state that follows props).
  const [collapsed, setCollapsed] = useState(() => runStarting && probedAt === null);
  const [seen, setSeen] = useState({ runStarting, probedAt });
  if (seen.runStarting !== runStarting || seen.probedAt !== probedAt) {
    setSeen({ runStarting, probedAt });
    if (runStarting && !seen.runStarting) setCollapsed(true);
    if (probedAt !== null && probedAt !== seen.probedAt) setCollapsed(false);
  }
  if (!board || !probe) return null;

  if (probe.status === 'probing') {
    return (
      <div className="banner banner-info" role="status" data-testid="probe-status">
        Connecting to <strong>{board.label}</strong> and reading its facts…
      </div>
    );
  }
  if (probe.status === 'error') {
    return (
      <div className="banner banner-error" role="alert" data-testid="probe-error">
        <strong>Could not probe {board.label}.</strong>{' '}
        <div className="multiline" data-testid="probe-error-text">
          {probe.error}
        </div>
      </div>
    );
  }
  const { result } = probe;
  const counts = { error: 0, warn: 0, info: 0 };
  for (const f of result.findings) counts[f.severity] += 1;
  return (
    <section className="panel device-card" aria-labelledby="device-heading" data-testid="device-card">
      <div className="panel-head">
        <div className="device-title">
          <h2 id="device-heading">Device</h2>
          <span className="device-name">{result.label}</span>
          <span className="muted small">
            {result.probe.boardModel ?? `${result.probe.arch ?? '?'} machine`} · probed{' '}
            {new Date(result.probedAt).toLocaleTimeString()}
          </span>
        </div>
        <span className="panel-tools">
          {collapsed && (
            <span className="muted small finding-counts">
              {counts.error} error · {counts.warn} warning · {counts.info} info
            </span>
          )}
          <button type="button" className="link-button" onClick={() => void probeBoard(board.id)}>
            Probe again
          </button>
          <button
            type="button"
            className="link-button"
            onClick={() => setCollapsed(!collapsed)}
            aria-expanded={!collapsed}
            data-testid="device-card-toggle"
          >
            {collapsed ? 'Show' : 'Hide'}
          </button>
        </span>
      </div>
      {!collapsed && <Facts result={result} />}
      {!collapsed && (
        <h3 className="subhead">
          Findings{' '}
          <span className="muted small finding-counts">
            {counts.error} error · {counts.warn} warning · {counts.info} info
          </span>
        </h3>
      )}
      {collapsed ? null : result.findings.length === 0 ? (
        <p className="muted" data-testid="device-findings">
          No findings: the board is ready.
        </p>
      ) : (
        <ul className="finding-list" data-testid="device-findings">
          {[...result.findings]
            .sort((a, b) => rank(a) - rank(b))
            .map((f) => (
              <Finding key={f.id} finding={f} />
            ))}
        </ul>
      )}
    </section>
  );
}

const rank = (f: HealthFinding) => (f.severity === 'error' ? 0 : f.severity === 'warn' ? 1 : 2);
