// `kvscope report --format prometheus` checked by the real parser: Debian's `promtool check
// metrics` (package `prometheus`; .ci/run installs it) parses and lints the export of a real demo
// session, and its headline numbers are those of `kvscope report --format json` of the same
// session. Hostile label values (quotes, backslashes, newlines, unicode) go through promtool too.
// Needs `npm run build` (the demo engine bundle).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileSummary } from '../../../shared/api/schemas';
import { renderPrometheus } from '../../../shared/report/render-prometheus';
import { FAST_DEMO_ARGS, runCli } from '../../helpers/cli';
import { parsePrometheusText, promtoolCheck, type PromSample } from '../../helpers/prometheus-text';
import { finishedRun, session } from '../../helpers/session-fixtures';

/** A GGUF summary that only names the model: what these tests label runs by. */ import type { GgufModelSummary } from '../../../shared/kv/model-config';

const namedModel = (name: string) => ({ name }) as unknown as GgufModelSummary;

const dir = mkdtempSync(join(tmpdir(), 'kvscope-prometheus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (name: string) => join(dir, name);

async function ok(args: string[]) {
  const r = await runCli(args);
  if (r.code !== 0) throw new Error(`kvscope ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return r;
}

/** promtool must accept the text without a parse error or a lint problem; its own words otherwise. */
async function expectPromtoolAccepts(text: string) {
  const { code, output } = await promtoolCheck(text);
  if (code !== 0) throw new Error(`promtool check metrics exited ${code}: ${output}`);
}

describe('kvscope report --format prometheus of a real session', () => {
  let prom: string;
  let json: { runs: Array<{ id: string; label: string; seq: number; summary: ProfileSummary }> };

  beforeAll(async () => {
    await ok([
      'profile',
      'local',
      '--demo',
      // Long enough (≈ 2.5 s of decode) for a slope even on a loaded machine.
      '--tokens',
      '2000',
      '--budget',
      '256MiB',
      ...FAST_DEMO_ARGS,
      '--out',
      at('demo.kvscope'),
    ]);
    await ok(['report', at('demo.kvscope'), '--format', 'prometheus', '-o', at('demo.prom')]);
    // The format also follows from the node_exporter textfile extension.
    await ok(['report', at('demo.kvscope'), '-o', at('by-name.prom')]);
    await ok(['report', at('demo.kvscope'), '--format', 'json', '-o', at('demo.json')]);
    prom = readFileSync(at('demo.prom'), 'utf8');
    json = JSON.parse(readFileSync(at('demo.json'), 'utf8')) as typeof json;
  });

  it('is accepted by promtool check metrics (parse and lint)', async () => {
    await expectPromtoolAccepts(prom);
    expect(readFileSync(at('by-name.prom'), 'utf8')).toBe(prom);
  });

  it('promtool refuses a broken file (the check can fail)', async () => {
    const broken = prom.replace(/run="/, 'run="\n');
    const { code, output } = await promtoolCheck(broken);
    expect(code).toBe(1);
    expect(output).toMatch(/pars/i);
  });

  /** The one run of the session, as the JSON report has it. */
  const jsonRun = () => {
    const [run] = json.runs;
    if (json.runs.length !== 1 || !run) throw new Error(`expected one run, got ${json.runs.length}`);
    return run;
  };

  it('carries the headline numbers of the JSON report', () => {
    const run = jsonRun();
    const s = run.summary;
    const samples = parsePrometheusText(prom).samples;
    const value = (name: string) => {
      const hits = samples.filter((x: PromSample) => x.name === `kvscope_${name}` && x.labels.run === run.id);
      expect(hits, name).toHaveLength(1);
      return hits[0]?.value;
    };
    // Sanity: a demo run has every one of these numbers.
    expect(s.kv.measuredBytesPerToken).not.toBeNull();
    expect(s.oomHorizonTokens).not.toBeNull();
    expect(value('kv_theory_bytes_per_token')).toBe(s.kv.theoryBytesPerToken);
    expect(value('kv_measured_bytes_per_token')).toBe(s.kv.measuredBytesPerToken);
    expect(value('kv_overhead_ratio')).toBe(s.kv.overheadFactor);
    expect(value('kv_baseline_bytes')).toBe(s.kv.baselineBytes);
    expect(value('budget_bytes')).toBe(256 * 1024 * 1024);
    expect(value('budget_bytes')).toBe(s.budgetBytes);
    expect(value('oom_horizon_tokens')).toBe(s.oomHorizonTokens);
    expect(value('max_safe_context_tokens')).toBe(s.maxSafeContextTokens);
    expect(value('peak_rss_bytes')).toBe(s.peakRssBytes);
    expect(s.throughput.ttftMs).not.toBeNull();
    expect(value('ttft_seconds')).toBe((s.throughput.ttftMs ?? NaN) / 1000);
    expect(value('prefill_tokens_per_second')).toBe(s.throughput.prefillTokensPerSecond);
    expect(value('decode_tokens_per_second')).toBe(s.throughput.decodeTokensPerSecond);
    expect(value('tokens_total')).toBe(2000);
    expect(value('tokens_total')).toBe(s.throughput.tokens);
    expect(value('samples_total')).toBe(s.samples);
    expect(value('lost_samples_total')).toBe(s.lostSamples);
    expect(value('duration_seconds')).toBe(s.durationMs / 1000);
    expect(value('engine_exit_code')).toBe(0);
    expect(value('engine_oom_killed')).toBe(0);
    const info = samples.find((x) => x.name === 'kvscope_run_info');
    expect(info?.labels).toMatchObject({ run_label: run.label, seq: String(run.seq), kv_mode: s.kv.mode });
    expect(info?.labels.command).toBe(s.engine.command);
  });

  it('carries the sampled series with their units', () => {
    const samples = parsePrometheusText(prom).samples;
    const peak = samples.find((x) => x.name === 'kvscope_sample_rss_max_bytes' && x.labels.source === 'procfs');
    expect(peak?.value).toBe(jsonRun().summary.peakRssBytes);
    const tokens = samples.find((x) => x.name === 'kvscope_sample_tokens_total' && x.labels.source === 'engine');
    expect(tokens?.value).toBe(2000);
  });
});

describe('hostile label values through promtool', () => {
  const HOSTILE = [
    'a"b',
    'back\\slash\\',
    'new\nline\n# TYPE evil counter\nevil 1',
    '} 1\nkvscope_tokens_total{x="y"} 9',
    'Ωmega ≈ 😀 日本語 \u200b',
    'tab\tcr\r',
    '\\n literal backslash-n',
    '',
  ];

  it('accepts runs, targets, models, sources and commands named with them', async () => {
    const runs = HOSTILE.map((h, i) => {
      const base = finishedRun();
      return finishedRun({
        seq: i + 1,
        id: `run-${i}-${h}`,
        label: h,
        engine: { ...base.engine!, command: h, model: namedModel(h) },
        samples: [
          { tMs: 0, source: h, values: { rssBytes: 1 } },
          { tMs: 1, source: h, values: { rssBytes: 3 } },
        ],
      });
    });
    const text = renderPrometheus(session(runs, { label: HOSTILE.join('|') }), { session: HOSTILE[2] });
    await expectPromtoolAccepts(text);
    const parsed = parsePrometheusText(text);
    const byRun = (name: string, label: string) =>
      new Set(parsed.samples.filter((s) => s.name === name).map((s) => s.labels[label]));
    expect(byRun('kvscope_tokens_total', 'run_label')).toEqual(new Set(HOSTILE));
    expect(byRun('kvscope_tokens_total', 'model')).toEqual(new Set(HOSTILE.map((h) => h || '')));
    expect(byRun('kvscope_run_info', 'command')).toEqual(new Set(HOSTILE));
    expect(byRun('kvscope_sample_rss_bytes', 'source')).toEqual(new Set(HOSTILE));
    expect(byRun('kvscope_sample_rss_bytes', 'session')).toEqual(new Set([HOSTILE[2]]));
  });

  it('keeps a file with hostile series keys parseable (names sanitised, the key kept as a label)', async () => {
    const run = finishedRun({
      samples: HOSTILE.map((h, i) => ({ tMs: i, source: 'x', values: { [`${h}Bytes`]: i, [h || 'empty']: i } })),
    });
    const text = renderPrometheus(session([run]));
    const { code, output } = await promtoolCheck(text);
    // Lint may object to a name part such as "b" (it reads like an abbreviated unit); parsing may not fail.
    expect(code, output).not.toBe(1);
    expect(output).not.toMatch(/parsing error/);
    const keys = new Set(parsePrometheusText(text).samples.map((s) => s.labels.series));
    for (const h of HOSTILE) expect(keys.has(`${h}Bytes`)).toBe(true);
  });

  it('accepts any label value (property, one promtool run per batch)', async () => {
    const labels = fc.sample(fc.string({ unit: 'grapheme', maxLength: 40 }), 60);
    const runs = labels.map((label, i) => finishedRun({ seq: i + 1, id: `r${i}`, label }));
    const text = renderPrometheus(session(runs, { label: labels.join('') }));
    await expectPromtoolAccepts(text);
    expect(
      parsePrometheusText(text)
        .samples.filter((s) => s.name === 'kvscope_tokens_total')
        .map((s) => s.labels.run_label),
    ).toEqual(labels);
  });
});
