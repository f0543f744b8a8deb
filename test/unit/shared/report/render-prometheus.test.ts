// The Prometheus export's content: headline numbers in base units, series with their units, labels
// escaped so that no string from a board or a model file can break a line. The real parser
// (promtool) checks the same renderings in test/integration/cli/report-prometheus.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  escapeLabelValue,
  renderPrometheus,
  seriesMetric,
  snakeCase,
} from '../../../../shared/report/render-prometheus';
import { crashedRun, finishedRun, HOSTILE_COMMAND, session } from '../../../helpers/session-fixtures';
import { parsePrometheusText, type PromSample } from '../../../helpers/prometheus-text';

/** A GGUF summary that only names the model: what these tests label runs by. */ import type { GgufModelSummary } from '../../../../shared/kv/model-config';

const namedModel = (name: string) => ({ name }) as unknown as GgufModelSummary;

function only(samples: PromSample[], name: string, labels: Record<string, string> = {}): PromSample {
  const hits = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  const [hit] = hits;
  if (hits.length !== 1 || !hit) throw new Error(`${hits.length} samples of ${name} ${JSON.stringify(labels)}`);
  return hit;
}

describe('renderPrometheus: headline numbers', () => {
  const text = renderPrometheus(session([finishedRun(), crashedRun()]));
  const parsed = parsePrometheusText(text);
  const run1 = { seq: '1' };

  it('writes every headline number of a finished run in base units', () => {
    const v = (name: string) => only(parsed.samples, `kvscope_${name}`, run1).value;
    expect(v('kv_theory_bytes_per_token')).toBe(32768);
    expect(v('kv_measured_bytes_per_token')).toBe(33110);
    expect(v('kv_overhead_ratio')).toBe(1.0104);
    expect(v('kv_baseline_bytes')).toBe(734003200);
    expect(v('budget_bytes')).toBe(2147483648);
    expect(v('oom_horizon_tokens')).toBe(41000);
    expect(v('max_safe_context_tokens')).toBe(39000);
    expect(v('peak_rss_bytes')).toBe(912261120);
    expect(v('ttft_seconds')).toBe(0.18);
    expect(v('prefill_tokens_per_second')).toBe(250.1);
    expect(v('decode_tokens_per_second')).toBe(15.2);
    expect(v('tokens_total')).toBe(2000);
    expect(v('samples_total')).toBe(4); // the fixture's four procfs samples
    expect(v('lost_samples_total')).toBe(0);
    expect(v('duration_seconds')).toBe(131);
    expect(v('engine_oom_killed')).toBe(1);
    expect(v('run_start_timestamp_seconds')).toBe(Date.UTC(2026, 0, 1, 12) / 1000);
  });

  it('leaves unknown numbers out instead of writing NaN', () => {
    // The OOM-killed engine has no exit status; the crashed run has no budget.
    expect(parsed.samples.filter((s) => s.name === 'kvscope_engine_exit_code' && s.labels.seq === '1')).toEqual([]);
    expect(parsed.samples.filter((s) => s.name === 'kvscope_budget_bytes' && s.labels.seq === '2')).toEqual([]);
    expect(text).not.toMatch(/NaN|Inf/);
  });

  it('labels each run with target, model, run id and label, seq and session', () => {
    expect(only(parsed.samples, 'kvscope_tokens_total', run1).labels).toEqual({
      target: 'orin',
      model: 'llama-3.2-1b-f16.gguf',
      run: '20260101120000-aaaaaaaa',
      run_label: 'llama 1B f16',
      seq: '1',
      session: '2026-01-01T11:59:00.000Z',
    });
    expect(only(parsed.samples, 'kvscope_tokens_total', { seq: '2' }).labels.model).toBe('demo 16L×8H×64 f16');
    // The model named by the engine's -m flag (quoted or not), or by the GGUF header.
    const base = finishedRun();
    const model = (run: ReturnType<typeof finishedRun>) =>
      only(parsePrometheusText(renderPrometheus(session([run]))).samples, 'kvscope_tokens_total').labels.model;
    expect(model(finishedRun({ engine: { ...base.engine!, command: HOSTILE_COMMAND } }))).toBe('m.gguf');
    expect(model(finishedRun({ engine: { ...base.engine!, model: namedModel('Llama 3.2 1B') } }))).toBe('Llama 3.2 1B');
  });

  it('exports a run recovered from a crash from its samples', () => {
    const v = (name: string) => only(parsed.samples, `kvscope_${name}`, { seq: '2' }).value;
    expect(v('samples_total')).toBe(21);
    expect(v('tokens_total')).toBe(1000);
    expect(v('kv_measured_bytes_per_token')).toBeCloseTo(32768, 0);
    expect(only(parsed.samples, 'kvscope_run_info', { seq: '2' }).labels).toMatchObject({
      state: 'running',
      analysis_source: 'recomputed',
      kv_mode: 'growth',
    });
  });

  it('writes one HELP and one TYPE per family, its samples together', () => {
    const names = text
      .split('\n')
      .filter((l) => l.startsWith('# TYPE '))
      .map((l) => l.split(' ')[2]);
    expect(new Set(names).size).toBe(names.length);
    expect(parsed.type.get('kvscope_tokens_total')).toBe('counter');
    expect(parsed.type.get('kvscope_peak_rss_bytes')).toBe('gauge');
    // Between a family's TYPE line and the next HELP, only that family's samples.
    let family = '';
    for (const line of text.split('\n').filter(Boolean)) {
      if (line.startsWith('# TYPE ')) family = line.split(' ')[2] ?? '';
      else if (!line.startsWith('#')) expect(line.split('{')[0]).toBe(family);
    }
  });
});

describe('renderPrometheus: sample series', () => {
  const parsed = parsePrometheusText(renderPrometheus(session([finishedRun()])));

  it('writes last, min and max of a gauge series and the last value of a counter', () => {
    const rss = { source: 'procfs', series: 'rssBytes' };
    expect(only(parsed.samples, 'kvscope_sample_rss_bytes', rss).value).toBe(912261120);
    expect(only(parsed.samples, 'kvscope_sample_rss_min_bytes', rss).value).toBe(209715200);
    expect(only(parsed.samples, 'kvscope_sample_rss_max_bytes', rss).value).toBe(912261120);
    expect(only(parsed.samples, 'kvscope_sample_rss_anon_min_bytes', { series: 'rssAnonBytes' }).value).toBe(104857600);
    expect(only(parsed.samples, 'kvscope_sample_tokens_total', { source: 'engine' }).value).toBe(2000);
    expect(parsed.samples.some((s) => s.name.startsWith('kvscope_sample_tokens_m'))).toBe(false);
    expect(parsed.samples.some((s) => s.labels.series === 'started')).toBe(false);
  });

  it('converts units to the base unit the name says', () => {
    const run = finishedRun({
      samples: [
        { tMs: 0, source: 'tegrastats', values: { cpuTempC: 41.5, gpuFreqMHz: 306, vddInPowerMw: 4820, emcPct: 12 } },
        {
          tMs: 1000,
          source: 'tegrastats',
          values: { cpuTempC: 55.25, gpuFreqMHz: 624.75, vddInPowerMw: 7000, emcPct: 7 },
        },
      ],
    });
    const s = parsePrometheusText(renderPrometheus(session([run]))).samples;
    expect(only(s, 'kvscope_sample_cpu_temp_celsius').value).toBe(55.25);
    expect(only(s, 'kvscope_sample_cpu_temp_min_celsius').value).toBe(41.5);
    expect(only(s, 'kvscope_sample_gpu_freq_hertz').value).toBe(624750000);
    expect(only(s, 'kvscope_sample_gpu_freq_min_hertz').value).toBe(306000000);
    expect(only(s, 'kvscope_sample_vdd_in_power_watts').value).toBe(7);
    expect(only(s, 'kvscope_sample_vdd_in_power_max_watts').value).toBe(7);
    expect(only(s, 'kvscope_sample_vdd_in_power_min_watts').value).toBe(4.82);
    expect(only(s, 'kvscope_sample_emc_ratio').value).toBe(0.07);
    expect(only(s, 'kvscope_sample_emc_max_ratio').value).toBe(0.12);
  });

  it('reads units from key suffixes', () => {
    const m = (key: string) => {
      const { base, unit, counter } = seriesMetric(key);
      return { base, unit, counter };
    };
    expect(m('rssAnonBytes')).toEqual({ base: 'rss_anon', unit: 'bytes', counter: false });
    expect(m('tempC')).toEqual({ base: 'temp', unit: 'celsius', counter: false });
    expect(m('cpu0FreqKHz')).toEqual({ base: 'cpu0_freq', unit: 'hertz', counter: false });
    expect(m('VDD_INPowerMw')).toEqual({ base: 'vdd_in_power', unit: 'watts', counter: false });
    expect(m('tMs')).toEqual({ base: 't', unit: 'seconds', counter: false });
    expect(m('tokensPerSec')).toEqual({ base: 'tokens', unit: 'per_second', counter: false });
    expect(m('LLC')).toEqual({ base: 'llc', unit: '', counter: false });
    expect(m('threads')).toEqual({ base: 'threads', unit: '', counter: false });
    expect(m('tokens')).toEqual({ base: 'tokens', unit: '', counter: true });
    expect(m('pageFaultsTotal')).toEqual({ base: 'page_faults', unit: '', counter: true });
    expect(seriesMetric('rssKb').convert(4)).toBe(4096);
    expect(seriesMetric('gpuFreqGHz').convert(1.5)).toBe(1.5e9);
  });

  it('turns any key into a valid metric name part', () => {
    fc.assert(
      fc.property(fc.string(), (key) => {
        expect(snakeCase(key)).toMatch(/^(?:[a-z0-9]+(?:_[a-z0-9]+)*)?$/);
      }),
    );
  });
});

describe('renderPrometheus: hostile strings', () => {
  const HOSTILE = 'a"b\\c\nd} 1\n# TYPE x counter\r\tΩ≈😀 \\n "';

  it('escapes backslash, double quote and newline in label values, nothing else', () => {
    expect(escapeLabelValue('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd');
    expect(escapeLabelValue('Ω≈😀\t\r')).toBe('Ω≈😀\t\r');
  });

  it('keeps every sample on one line and every label value intact', () => {
    const base = finishedRun();
    const run = finishedRun({
      label: HOSTILE,
      id: HOSTILE,
      engine: { ...base.engine!, command: HOSTILE, model: namedModel(HOSTILE) },
      samples: [{ tMs: 0, source: HOSTILE, values: { [HOSTILE]: 1, rssBytes: 5 } }],
    });
    const text = renderPrometheus(session([run], { label: HOSTILE }));
    const parsed = parsePrometheusText(text);
    for (const s of parsed.samples) {
      expect(s.labels.target).toBe(HOSTILE);
      expect(s.labels.run).toBe(HOSTILE);
      expect(s.labels.run_label).toBe(HOSTILE);
      expect(s.labels.model).toBe(HOSTILE);
    }
    expect(only(parsed.samples, 'kvscope_run_info').labels.command).toBe(HOSTILE);
    expect(only(parsed.samples, 'kvscope_sample_rss_bytes').labels.source).toBe(HOSTILE);
    // The hostile key becomes a safe name and keeps its text in the series label.
    const weird = parsed.samples.filter((s) => s.labels.series === HOSTILE);
    expect(weird.length).toBe(3);
    for (const s of weird) expect(s.name).toMatch(/^kvscope_sample_[a-z0-9_]+$/);
    // No line starts with anything but a comment of ours or a kvscope metric.
    for (const line of text.split('\n').filter(Boolean)) expect(line).toMatch(/^(?:# (?:HELP|TYPE) )?kvscope_/);
  });

  it('round-trips any label value (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), (label, target) => {
        const text = renderPrometheus(session([finishedRun({ label })], { label: target }));
        const parsed = parsePrometheusText(text);
        const s = only(parsed.samples, 'kvscope_tokens_total');
        expect(s.labels.run_label).toBe(label);
        expect(s.labels.target).toBe(target);
      }),
      { numRuns: 200 },
    );
  });
});
