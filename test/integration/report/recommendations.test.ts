// The tuning report's recommendations from a real f16 demo run near its budget: `kvscope profile
// local --demo --out` records it, and the report model built from that session recommends q8_0 KV
// with the max context it gives at the budget — checked against the KV math done by hand here —
// ranked by effect.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSession } from '../../../electron/node/session/session-store';
import { runRecommendations } from '../../../shared/analysis/recommendations';
import { renderReportHtml } from '../../../shared/report/render-html';
import { renderReportMarkdown } from '../../../shared/report/render-markdown';
import { buildReportModel, type RunReport } from '../../../shared/report/report-model';
import type { SessionData } from '../../../shared/report/session-data';
import { defined } from '../../helpers/defined';
import { runCli } from '../../helpers/cli';

/** A value the session must hold (null or undefined fails the test, naming it). */
function present<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`${what} missing`);
  return value;
}

const dir = mkdtempSync(join(tmpdir(), 'kvscope-recommend-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MIB = 1024 * 1024;
const BUDGET_BYTES = 160 * MIB;
// The demo's default shape: 16 layers × 8 KV heads × head dim 64, K and V.
const VALUES_PER_TOKEN = 2 * 16 * 8 * 64;
// By hand: f16 is 2 bytes a value; q8_0 blocks hold 32 values in 34 bytes; q4_0 32 in 18.
const F16_BYTES_PER_TOKEN = VALUES_PER_TOKEN * 2; // 32,768
const Q8_0_BYTES_PER_TOKEN = (VALUES_PER_TOKEN / 32) * 34; // 17,408
const Q4_0_BYTES_PER_TOKEN = (VALUES_PER_TOKEN / 32) * 18; // 9,216

describe('recommendations of an f16 demo run near its budget', () => {
  let session: SessionData;
  let run: RunReport;
  beforeAll(async () => {
    const out = join(dir, 'f16.kvscope');
    const r = await runCli([
      'profile',
      'local',
      '--demo',
      '--kv-type',
      'f16',
      '--tokens',
      '2500',
      '--tps',
      '800',
      '--interval-ms',
      '50',
      '--weights-mb',
      '8',
      '--budget',
      `${BUDGET_BYTES}`,
      '--out',
      out,
    ]);
    if (r.code !== 0) throw new Error(`profile failed (${r.code}): ${r.stderr}`);
    session = readSession(out);
    run = defined(buildReportModel(session).runs[0], 'run 1');
  }, 120_000);

  it('recommends q8_0 KV with the max context the KV math gives at the budget (within 1 %)', () => {
    const rec = defined(
      run.recommendations.find((x) => x.kind === 'kv-type'),
      'kv-type recommendation',
    );
    expect(rec.title).toBe('Use a q8_0 KV cache instead of f16');
    const stored = defined(session.runs[0], 'stored run');
    const a = stored.analysis;
    expect(a.kv.theoryBytesPerToken).toBe(F16_BYTES_PER_TOKEN);
    // The room for the cache at this budget, by hand: budget − baseline − file-backed RSS at the end.
    const mem = stored.samples.filter((s) => s.source === 'procfs' && typeof s.values.rssAnonBytes === 'number');
    const last = defined(mem.at(-1), 'last memory sample');
    const fileBacked = Number(last.values.rssBytes) - Number(last.values.rssAnonBytes);
    const room = BUDGET_BYTES - present(a.kv.baselineBytes, 'baseline') - fileBacked;
    expect(room).toBeGreaterThan(1000 * Q8_0_BYTES_PER_TOKEN);
    const byHandQ8 = room / Q8_0_BYTES_PER_TOKEN;
    const byHandQ4 = room / Q4_0_BYTES_PER_TOKEN;

    const computed = runRecommendations({
      analysis: a,
      events: stored.events,
      samples: mem.length,
      lostSamples: 0,
      ctx: stored.engine?.ctx ?? null,
      kvType: 'f16',
      engine: 'demo',
      promptTokens: null,
      recovered: false,
      failure: null,
      series: stored.samples,
    }).find((x) => x.kind === 'kv-type');
    if (computed?.kind !== 'kv-type') throw new Error('no kv-type recommendation');
    expect(computed.bytesPerTokenAfter).toBe(Q8_0_BYTES_PER_TOKEN);
    expect(Math.abs(present(computed.maxContextAfter, 'q8_0 max context') / byHandQ8 - 1)).toBeLessThan(0.01);
    expect(Math.abs(present(computed.alternative?.maxContext, 'q4_0 max context') / byHandQ4 - 1)).toBeLessThan(0.01);
    // The report says the same numbers: f16's max safe context → q8_0's.
    expect(rec.change.label).toBe('Max context at the 160 MiB budget');
    expect(rec.change.before).toBe(`${present(a.maxSafeContextTokens, 'max safe').toLocaleString('en-US')} tokens`);
    expect(rec.change.after).toBe(`${present(computed.maxContextAfter, 'q8_0').toLocaleString('en-US')} tokens`);
    expect(rec.fix).toBe('--kv-type q8_0');
  });

  it('is ordered by effect: what prevents a kill first, then the largest gain', () => {
    expect(run.recommendations.length).toBeGreaterThanOrEqual(2);
    const kinds = run.recommendations.map((r) => r.kind);
    // The node demo engine's own binary is file-backed RSS: the mmap note is there, smaller than the KV gain.
    expect(kinds).toContain('mmap');
    expect(kinds.indexOf('kv-type')).toBeLessThan(kinds.indexOf('mmap'));
    for (const [i, r] of run.recommendations.entries()) {
      const next = run.recommendations[i + 1];
      if (!next) break;
      if (r.prevents === next.prevents) expect(r.effectFraction).toBeGreaterThanOrEqual(next.effectFraction);
      else expect(r.prevents).toBe('oom');
    }
  });

  it('the Markdown and HTML reports list them, in rank order, with the number each changes', () => {
    const model = buildReportModel(session);
    const md = renderReportMarkdown(model);
    const html = renderReportHtml(model);
    const first = defined(run.recommendations[0], 'first recommendation');
    expect(md).toContain('### Recommendations');
    expect(md).toContain(`1. ${first.title}`);
    expect(md).toContain(`${first.change.before} → ${first.change.after}`);
    expect(html).toContain('<h3>Recommendations</h3><p class="muted">');
    const order = run.recommendations.map((r) => html.indexOf(`<strong>${r.title}</strong>`));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });
});
