// The real `kvscope` command line: `profile --out --report`, `report` in every text format,
// `compare`, bad input, a profile killed with SIGKILL mid-run, and no environment leaking into
// the session file.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSession } from '../../../electron/node/session/session-store';
import { recomputeAnalysis, summarizeRun, type ProfileSummaryOutput } from '../../../shared/analysis/run-summary';
import { FAST_DEMO_ARGS, processesMatching, runCli, startEndlessDemo } from '../../helpers/cli';
import { defined } from '../../helpers/defined';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-cli-session-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (name: string) => join(dir, name);

/** Values that must never reach a session file, placed in the environment of the profiling process. */
const FAKE_SECRET = `fake-password-${process.pid}-${Date.now()}-do-not-store`;

/** Both recorded sessions: the same 1,500-token demo under a 256 MiB budget (f16 and q8_0 KV). */
const DEMO_1500 = ['profile', 'local', '--demo', '--tokens', '1500', '--budget', '256MiB', ...FAST_DEMO_ARGS];

async function ok(args: string[], env?: NodeJS.ProcessEnv) {
  const r = await runCli(args, { env });
  if (r.code !== 0) throw new Error(`kvscope ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return r;
}

describe('kvscope profile --out --report, then report and compare', () => {
  let printed: ProfileSummaryOutput;
  beforeAll(async () => {
    const r = await ok([...DEMO_1500, '--out', at('f16.kvscope'), '--report', at('r.html'), '--json'], {
      KVSCOPE_SSH_PASSWORD: FAKE_SECRET,
      MY_API_TOKEN: FAKE_SECRET,
    });
    printed = JSON.parse(r.stdout) as ProfileSummaryOutput;
    expect(r.stderr).toContain(`session written to ${at('f16.kvscope')}`);
    expect(r.stderr).toContain(`html report written to ${at('r.html')}`);
    await ok([...DEMO_1500, '--kv-type', 'q8_0', '--out', at('q8.kvscope')]);
  });

  it('the session holds the run that --json printed; its numbers recompute from its samples', () => {
    const data = readSession(at('f16.kvscope'));
    expect(data.runs).toHaveLength(1);
    const run = defined(data.runs[0], 'run 0');
    expect(run.state).toBe('done');
    expect(run.analysisSource).toBe('stored');
    expect(summarizeRun(run)).toEqual(printed);
    expect(run.samples.filter((s) => s.source === 'procfs')).toHaveLength(printed.samples);
    expect(recomputeAnalysis(run)).toEqual(run.analysis);
    expect(data.meta.target).toEqual(printed.target);
    expect(run.analysis.kv.theoryBytesPerToken).toBe(32768);
  });

  it('nothing from the environment is stored (no secret-looking variable, no PATH)', () => {
    for (const f of [at('f16.kvscope'), at('f16.kvscope-wal')]) {
      if (!existsSync(f)) continue;
      const bytes = readFileSync(f).toString('latin1');
      expect(bytes).not.toContain(FAKE_SECRET);
      expect(bytes).not.toContain(process.env.PATH as string);
    }
    // The WAL was checkpointed into the file when kvscope closed it.
    expect(existsSync(at('f16.kvscope-wal'))).toBe(false);
  });

  it('--report wrote one self-contained HTML file', () => {
    const html = readFileSync(at('r.html'), 'utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('KVScope report');
    expect(html).toContain('kvscope demo-engine --layers 16 --kv-heads 8 --head-dim 64 --kv-type f16 --tokens 1500');
    expect(html.match(/<svg [^>]*class="chart"/g)).toHaveLength(3);
    expect([...html.matchAll(/<figcaption>([^<]*)<\/figcaption>/g)].map((m) => m[1])).toEqual([
      'RSS against generated tokens',
      'RSS over time',
      'Tokens per second over time',
    ]);
    expect(html).not.toMatch(/<script|<link\b|<[^<>]*\b(?:src|href)\s*=/i);
  });

  it('report --format md', async () => {
    await ok(['report', at('f16.kvscope'), '--format', 'md', '-o', at('r.md')]);
    const md = readFileSync(at('r.md'), 'utf8');
    expect(md.startsWith('# KVScope report')).toBe(true);
    expect(md).toContain('| Bytes per token, theory | 32.0 KiB (32,768 B) |');
    expect(md).toContain('| Budget | 256 MiB |');
    expect(md).toContain(
      'KV at f16 costs 32.0 KiB/token: q8\\_0 cuts it to 17.0 KiB (-47 %)'.replace('q8\\_0', 'q8_0'),
    );
  });

  it('report --format perfetto: Chrome trace JSON with counters and instant events', async () => {
    await ok(['report', at('f16.kvscope'), '--format', 'perfetto', '-o', at('trace.json')]);
    const trace = JSON.parse(readFileSync(at('trace.json'), 'utf8'));
    const rss = trace.traceEvents.filter((e: any) => e.ph === 'C' && e.name === 'rssBytes');
    expect(rss.length).toBe(printed.samples);
    for (const e of rss) {
      expect(e.pid).toBe(1);
      expect(Number.isInteger(e.ts)).toBe(true);
      expect(typeof e.args.rssBytes).toBe('number');
    }
    // Timestamps in microseconds, in order.
    expect(rss.map((e: any) => e.ts)).toEqual([...rss.map((e: any) => e.ts)].sort((a: number, b: number) => a - b));
    expect(trace.traceEvents.filter((e: any) => e.ph === 'i').map((e: any) => e.name)).toEqual(['start', 'exit']);
    expect(trace.traceEvents.find((e: any) => e.ph === 'M' && e.name === 'process_name').args.name).toBe(
      'run 1: demo growth 16L×8H×64 f16',
    );
  });

  it('report --format csv and json (format from the flag, or from the file name)', async () => {
    await ok(['report', at('f16.kvscope'), '--format', 'csv', '-o', at('samples.csv')]);
    const csv = readFileSync(at('samples.csv'), 'utf8').split('\r\n');
    const header = defined(csv[0], 'CSV header');
    expect(header.startsWith('run,run_label,t_ms,source,')).toBe(true);
    expect(header.split(',')).toContain('rssBytes');
    expect(csv.filter((l) => l.includes(',procfs,'))).toHaveLength(printed.samples);
    await ok(['report', at('f16.kvscope'), '-o', at('summary.json')]);
    const json = JSON.parse(readFileSync(at('summary.json'), 'utf8'));
    expect(json.runs[0].summary.kv).toEqual(printed.kv);
    expect(json.runs[0].analysisSource).toBe('stored');
  });

  it('compare: before/after q8_0, side by side with the change in percent', async () => {
    await ok(['compare', at('f16.kvscope'), at('q8.kvscope'), '-o', at('cmp.md')]);
    const md = readFileSync(at('cmp.md'), 'utf8');
    // 16 × 8 × 2 × 64 values: f16 = 2 bytes each (32,768 B), q8_0 = 34/32 bytes (17,408 B): -46.9 %.
    expect(md).toContain('| KV bytes/token, theory | 32.0 KiB | 17.0 KiB | -46.9 % (better) |');
    expect(md).toContain('| KV cache type | f16 | q8\\_0 | differs |'.replace('q8\\_0', 'q8_0'));
    await ok(['compare', at('f16.kvscope'), at('q8.kvscope'), '-o', at('cmp.html')]);
    const html = readFileSync(at('cmp.html'), 'utf8');
    expect(html).toContain('<td class="num better">-46.9 % (better)</td>');
  });
});

describe('bad input: one line on stderr, non-zero exit', () => {
  const oneLine = (stderr: string) => stderr.trim().split('\n').length === 1;

  it('report of a missing file, of a file that is not a session, with an unknown format', async () => {
    const missing = await runCli(['report', at('missing.kvscope'), '--format', 'md', '-o', at('x.md')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`kvscope report: ${at('missing.kvscope')}: no such file\n`);

    writeFileSync(at('not-a-session.kvscope'), 'hello, I am text\n'.repeat(300));
    const text = await runCli(['report', at('not-a-session.kvscope'), '--format', 'md', '-o', at('x.md')]);
    expect(text.code).toBe(1);
    expect(text.stderr).toBe(
      `kvscope report: ${at('not-a-session.kvscope')} is not a KVScope session (not an SQLite file)\n`,
    );

    const format = await runCli(['report', at('not-a-session.kvscope'), '--format', 'docx', '-o', at('x.docx')]);
    expect(format.code).toBe(2);
    expect(format.stderr).toBe(
      'kvscope report: unknown format "docx" (expected one of html, md, csv, json, pdf, perfetto, prometheus)\n',
    );

    const noOut = await runCli(['report', at('not-a-session.kvscope'), '--format', 'md']);
    expect(noOut.code).toBe(2);
    expect(oneLine(noOut.stderr)).toBe(true);
    expect(existsSync(at('x.md'))).toBe(false);
  });

  it('compare with a missing file or an output it cannot write', async () => {
    const missing = await runCli(['compare', at('missing-a.kvscope'), at('missing-b.kvscope'), '-o', at('c.md')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`kvscope compare: ${at('missing-a.kvscope')}: no such file\n`);
    const ext = await runCli(['compare', at('a.kvscope'), at('b.kvscope'), '-o', at('c.csv')]);
    expect(ext.code).toBe(2);
    expect(oneLine(ext.stderr)).toBe(true);
  });

  it('profile --report with an extension it cannot write fails before running anything', async () => {
    const r = await runCli(['profile', 'local', '--demo', '--report', at('r.docx')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `kvscope profile: --report ${at('r.docx')}: the report is written as .html, .md, .pdf, .json, .csv, .trace.json (Perfetto) or .prom (Prometheus) — by its extension\n`,
    );
  });

  it.each([
    ['in a folder that does not exist', 'gone/r.md', 'its folder does not exist'],
    ['onto a session', 'session.md', 'is a KVScope session: not writing a report over it'],
  ])('profile --report %s fails before running anything (it failed after the whole run)', async (_what, name, why) => {
    const session = await runCli([
      'profile',
      'local',
      '--demo',
      '--tokens',
      '20',
      ...FAST_DEMO_ARGS,
      '--out',
      at('session.md'),
    ]);
    expect(session.code, session.stderr).toBe(0);
    const r = await runCli(['profile', 'local', '--demo', '--tokens', '20', ...FAST_DEMO_ARGS, '--report', at(name)]);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `kvscope profile: --report ${at(name)}: ${why}\n`]);
    // The session asked about is left alone: no -wal or -shm beside it either.
    expect(['session.md-wal', 'session.md-shm'].filter((f) => existsSync(at(f)))).toEqual([]);
  });

  it('profile --out onto a file that is not a session refuses to overwrite it', async () => {
    writeFileSync(at('precious.txt'), 'keep me');
    const r = await runCli(['profile', 'local', '--demo', '--out', at('precious.txt')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `kvscope profile: --out: ${at('precious.txt')} exists and is not a KVScope session: not overwriting it\n`,
    );
    expect(readFileSync(at('precious.txt'), 'utf8')).toBe('keep me');
  });
});

describe('a profile killed mid-run', () => {
  it('leaves a session that opens, with its samples, and a report recomputed from them', async () => {
    const out = at('killed.kvscope');
    // The engine outlives kvscope (it runs detached on the target); the watchdog ends it 2 s after
    // the heartbeats stop.
    const { child, runDir, stderr } = await startEndlessDemo([
      'local',
      ...['--tps', '300', '--interval-ms', '50', '--weights-mb', '8', '--out', out],
    ]);
    // Kill once the file holds a good stretch of decode (the progress lines count the tokens:
    // "kvscope profile: 4 s · 1,234 tokens · RSS …", electron/node/cli/cli-progress.ts).
    const tokensSoFar = () =>
      Math.max(
        0,
        ...[...stderr().matchAll(/kvscope profile: [^·\n]+ · ([\d,]+) tokens ·/g)].map((m) =>
          Number((m[1] ?? '').replace(/,/g, '')),
        ),
      );
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (tokensSoFar() >= 600) resolve();
        else if (child.exitCode !== null) reject(new Error(`profile ended early: ${stderr()}`));
        else setTimeout(check, 100);
      };
      check();
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('close', r));

    const data = readSession(out);
    const run = defined(data.runs[0], 'run 0');
    expect(run.state).toBe('running');
    expect(run.outcome).toBeNull();
    expect(run.analysisSource).toBe('recomputed');
    expect(run.samples.filter((s) => s.source === 'procfs').length).toBeGreaterThan(10);
    expect(run.analysis.kv.theoryBytesPerToken).toBe(32768);
    // The demo's true cost is 32,768 B/token; the profiler measures it within 5 % even from a cut-off run.
    expect(Math.abs((run.analysis.kv.measuredBytesPerToken as number) / 32768 - 1)).toBeLessThan(0.05);

    const r = await ok(['report', out, '--format', 'md', '-o', at('killed.md')]);
    expect(r.stderr).toContain('(1 run(s) recovered from an interrupted recording)');
    expect(readFileSync(at('killed.md'), 'utf8')).toContain(
      'This run was not finished cleanly: KVScope stopped while recording it',
    );

    // The board-side watchdog ends the orphaned engine.
    for (let i = 0; i < 100 && (await processesMatching(runDir)).length > 0; i++)
      await new Promise((res) => setTimeout(res, 200));
    expect(await processesMatching(runDir)).toEqual([]);
  });
});
