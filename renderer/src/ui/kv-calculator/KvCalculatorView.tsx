// The KV calculator: a model's shape (from a GGUF on this computer or a board, or typed), a KV
// type, context, window, parallel sequences and a budget → bytes per token, the cache at that
// context, the longest context that fits, and KV bytes against context for every KV type.
// Numbers come from kv-calculation.ts (shared/kv/kv-theory.ts); this file only lays them out.
import { useId, useMemo, type ReactNode } from 'react';
import { Line, ReferenceLine } from 'recharts';
import { KvTypeSchema, type KvType } from '../../../../shared/api/schemas';
import { DEVICE_PRESETS } from '../../../../shared/analysis/presets';
import { formatBytesShort, formatTokensShort, niceByteTicks, niceLinearTicks } from '../../../../shared/format/axis';
import { formatBytes, formatBytesPerToken, formatCount, formatTokens } from '../../../../shared/format/units';
import type { KvForm, KvFormField } from '../../state/kv-slice';
import { LINE_PROPS, LineChartFrame } from '../LineChartFrame';
import { LabelledField } from '../LabelledField';
import { useAppStore } from '../store-context';
import { calculateKv, contextBeyondTrainingNote, maxContextBeyondTrainingNote, maxContextText } from './kv-calculation';
import '../sessions/sessions.css';

/** A hue each, far apart (f16 and bf16 were two light blues, q5_1/q5_0 two purples, q4_1/q4_0 two yellows). */
const KV_COLORS: Record<KvType, string> = {
  f32: '#ff5d5d',
  f16: '#4c9bff',
  bf16: '#f0a020',
  q8_0: '#2fb87e',
  q5_1: '#c77dff',
  q5_0: '#18b5c9',
  q4_1: '#d4b000',
  q4_0: '#ff8fcf',
};

/** A curve that lies on an earlier one (bf16 on f16: the same bytes) is dashed, so both show. */
const SAME_CURVE_DASH = '6 5';

type TextKvField = Exclude<KvFormField, 'source' | 'kvType'>;

/** A labelled text input whose accessible name is exactly `label`; the hint is its description. */
function KvText({
  field,
  label,
  hint,
  error,
  placeholder,
}: {
  field: TextKvField;
  label: string;
  hint?: string;
  error?: string;
  placeholder?: string;
}) {
  const id = useId();
  const value = useAppStore((s) => s.kvForm[field]);
  const setKvField = useAppStore((s) => s.setKvField);
  return (
    <LabelledField id={id} label={label} hint={hint} error={error} errorTestId={`kv-error-${field}`}>
      {(describedBy) => (
        <input
          id={id}
          type="text"
          value={value}
          placeholder={placeholder}
          spellCheck={false}
          aria-invalid={Boolean(error)}
          aria-describedby={describedBy}
          onChange={(e) => setKvField(field, e.target.value)}
          data-testid={`kv-${field}`}
        />
      )}
    </LabelledField>
  );
}

function KvSelect({
  label,
  value,
  onChange,
  testId,
  children,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
  children: ReactNode;
  error?: string;
}) {
  const id = useId();
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={error ? `${id}-error` : undefined}
        data-testid={testId}
      >
        {children}
      </select>
      {error && (
        <span className="field-error" id={`${id}-error`} data-testid={`${testId}-error`}>
          {error}
        </span>
      )}
    </div>
  );
}

function ModelSource({ errors }: { errors: Partial<Record<KvFormField, string>> }) {
  const form = useAppStore((s) => s.kvForm);
  const header = useAppStore((s) => s.kvHeader);
  const targets = useAppStore((s) => s.boards);
  const setKvField = useAppStore((s) => s.setKvField);
  const readKvHeader = useAppStore((s) => s.readKvHeader);
  return (
    <>
      <div className="segmented" role="radiogroup" aria-label="Model shape from">
        {(
          [
            ['gguf', 'GGUF file'],
            ['manual', 'Manual shape'],
          ] as Array<[KvForm['source'], string]>
        ).map(([value, text]) => (
          <button
            key={value}
            type="button"
            role="radio"
            aria-checked={form.source === value}
            onClick={() => setKvField('source', value)}
            data-testid={`kv-source-${value}`}
          >
            {text}
          </button>
        ))}
      </div>
      {form.source === 'gguf' ? (
        <form
          className="kv-form-grid"
          onSubmit={(e) => {
            e.preventDefault();
            if (header.status !== 'loading') void readKvHeader();
          }}
        >
          <KvSelect
            label="Where"
            value={form.ggufTarget}
            onChange={(v) => setKvField('ggufTarget', v)}
            testId="kv-ggufTarget"
          >
            {targets.map((t) => (
              <option key={t.id} value={t.id}>
                {t.label}
              </option>
            ))}
          </KvSelect>
          <KvText
            field="ggufPath"
            label="GGUF path"
            hint="Only the header is read, never the whole file."
            placeholder="/models/model.gguf"
          />
          <div className="field">
            <span className="field-label" aria-hidden="true">
              &nbsp;
            </span>
            <button
              type="submit"
              className="button-secondary"
              // While it reads the button stays focusable (aria-disabled, a press ignored): disabled, it
              // dropped the focus of the user who pressed it to <body> until the header came.
              aria-disabled={header.status === 'loading' || undefined}
              data-testid="kv-read-header"
            >
              {header.status === 'loading' ? 'Reading…' : 'Read header'}
            </button>
          </div>
        </form>
      ) : (
        <div className="kv-form-grid">
          <KvText field="layers" label="Layers" error={errors.layers} />
          <KvText field="kvHeads" label="KV heads" error={errors.kvHeads} />
          <KvText field="headDimK" label="Head dim (K)" error={errors.headDimK} />
          <KvText field="headDimV" label="Head dim (V)" hint="Empty: same as K" error={errors.headDimV} />
        </div>
      )}
      {form.source === 'gguf' && header.status === 'error' && (
        <p className="field-error" role="alert" data-testid="kv-header-error">
          Could not read the header: {header.error}. Check the path on{' '}
          {targets.find((t) => t.id === form.ggufTarget)?.label ?? 'the target'}, or type the shape by hand (Manual
          shape).
        </p>
      )}
      {form.source === 'gguf' && header.status === 'ready' && <ModelFacts />}
    </>
  );
}

function ModelFacts() {
  const header = useAppStore((s) => (s.kvHeader.status === 'ready' ? s.kvHeader.header : null));
  if (!header) return null;
  const m = header.summary;
  const heads = Array.isArray(m.nHeadKv)
    ? `${Math.min(...m.nHeadKv)}–${Math.max(...m.nHeadKv)} (per layer)`
    : String(m.nHeadKv);
  return (
    <dl className="session-numbers model-facts" data-testid="kv-model-facts">
      <div>
        <dt>Model</dt>
        <dd data-testid="kv-model-name">{m.name ?? header.path.split('/').pop()}</dd>
      </div>
      <div>
        <dt>Architecture</dt>
        <dd data-testid="kv-model-arch">{m.architecture}</dd>
      </div>
      <div>
        <dt>Layers</dt>
        <dd data-testid="kv-model-layers">{m.nLayer}</dd>
      </div>
      <div>
        <dt>KV heads</dt>
        <dd data-testid="kv-model-kv-heads">{heads}</dd>
      </div>
      <div>
        <dt>Head dim K / V</dt>
        <dd data-testid="kv-model-head-dim">
          {m.headDimK} / {m.headDimV}
        </dd>
      </div>
      <div>
        <dt>Trained context</dt>
        <dd>{formatTokens(m.nCtxTrain)}</dd>
      </div>
      <div>
        <dt>Sliding window</dt>
        <dd>{m.slidingWindow ? `${formatCount(m.slidingWindow)} tokens on ${m.swaLayers} layers` : 'none'}</dd>
      </div>
      <div>
        <dt>File type</dt>
        <dd>{m.fileTypeName ?? 'not stated'}</dd>
      </div>
      {m.notes.length > 0 && (
        <div>
          <dt>Notes</dt>
          <dd>{m.notes.join('; ')}</dd>
        </div>
      )}
    </dl>
  );
}

export function KvCalculatorView() {
  const form = useAppStore((s) => s.kvForm);
  const header = useAppStore((s) => s.kvHeader);
  const setKvField = useAppStore((s) => s.setKvField);
  const result = useMemo(() => calculateKv(form, header), [form, header]);
  const errors = result.ok ? {} : result.errors;

  return (
    <section className="panel kv-view" aria-labelledby="kv-heading" data-testid="kv-view">
      <div className="panel-head">
        <h2 id="kv-heading">KV cache calculator</h2>
      </div>
      <ModelSource errors={errors} />
      <h3 className="subhead">Cache</h3>
      <div className="kv-form-grid">
        <KvSelect
          label="KV type"
          value={form.kvType}
          onChange={(v) => setKvField('kvType', v as KvType)}
          testId="kv-kvType"
          error={errors.kvType}
        >
          {KvTypeSchema.options.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </KvSelect>
        <KvText field="ctx" label="Context" hint="tokens per sequence" error={errors.ctx} />
        <KvText
          field="window"
          label="Window"
          hint="tokens; empty = the whole context"
          error={errors.window}
          placeholder="none"
        />
        <KvText field="nSeq" label="Parallel sequences" error={errors.nSeq} />
        <KvSelect label="Board" value={form.presetId} onChange={(v) => setKvField('presetId', v)} testId="kv-presetId">
          <option value="">Budget as typed</option>
          {DEVICE_PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </KvSelect>
        {form.presetId === '' ? (
          <KvText field="budget" label="Budget" hint="e.g. 2 GiB; empty = none" error={errors.budget} />
        ) : (
          <div className="field">
            <span className="field-label">Budget</span>
            <span className="mono" data-testid="kv-preset-budget">
              {formatBytes(DEVICE_PRESETS.find((p) => p.id === form.presetId)?.ramBytes)} (the board's RAM)
            </span>
          </div>
        )}
      </div>
      {!result.ok && result.needsModel && header.status !== 'error' && (
        <div className="chart-empty" data-testid="kv-needs-model">
          <div className="chart-empty-title">No model yet</div>
          <p>Type the path of a .gguf file and press Read header, or switch to Manual shape.</p>
        </div>
      )}
      {result.ok && <KvResults calc={result.calc} />}
    </section>
  );
}

function KvResults({ calc }: { calc: Extract<ReturnType<typeof calculateKv>, { ok: true }>['calc'] }) {
  const kvType = useAppStore((s) => s.kvForm.kvType);
  const fromGguf = useAppStore((s) => s.kvForm.source === 'gguf');
  const data = useMemo(
    () =>
      calc.curves[0]?.points.map((p, i) => ({
        ctx: p.ctx,
        ...Object.fromEntries(calc.curves.map((c) => [c.kvType, c.points[i]?.bytes ?? null])),
      })) ?? [],
    [calc],
  );
  const topBytes = Math.max(0, ...calc.curves.map((c) => c.points.at(-1)?.bytes ?? 0));
  // The budget line when it is near the curves (within 1.5× the largest); far above, it would flatten them.
  // The line is what the cache may take: the budget, less the weights when the file size is known.
  const cacheBudget = calc.cacheBudgetBytes;
  const showBudget = cacheBudget !== null && cacheBudget <= (calc.curves[0]?.points.at(-1)?.bytes ?? 0) * 1.5;
  // The curves end at the largest context computed: round ticks up to it, none past it.
  const xMax = Math.max(1, data.at(-1)?.ctx ?? 1);
  const xTicks = niceLinearTicks(xMax, 5, true).ticks.filter((t) => t <= xMax);
  const ctxNote = contextBeyondTrainingNote(calc);
  const maxContextNote = maxContextBeyondTrainingNote(calc);
  const yAxis = niceByteTicks(Math.max(topBytes, showBudget ? (cacheBudget ?? 0) : 0) * 1.02);
  return (
    <>
      <h3 className="subhead">Result ({kvType})</h3>
      <dl className="kv-results">
        <div>
          <dt>Bytes per token</dt>
          <dd data-testid="kv-bytes-per-token" data-bytes={calc.bytesPerToken}>
            {formatBytesPerToken(calc.bytesPerToken)}
          </dd>
        </div>
        <div>
          <dt>
            Cache at {formatTokens(calc.ctx)}
            {calc.nSeq > 1 ? ` × ${calc.nSeq} sequences` : ''}
          </dt>
          <dd data-testid="kv-total" data-bytes={calc.totalBytes}>
            {formatBytes(calc.totalBytes)}
          </dd>
        </div>
        <div>
          <dt>Max context for the budget</dt>
          <dd data-testid="kv-max-context" data-tokens={calc.maxContext ?? ''}>
            {maxContextText(calc)}
          </dd>
        </div>
      </dl>
      {ctxNote && (
        <p className="banner banner-warn" role="note" data-testid="kv-context-note">
          {ctxNote}
        </p>
      )}
      {maxContextNote && (
        <p className="banner banner-warn" role="note" data-testid="kv-max-context-note">
          {maxContextNote}
        </p>
      )}
      {calc.budgetBytes !== null && calc.weightsBytes !== null && (
        <p className={cacheBudget === 0 ? 'field-error' : 'muted small'} data-testid="kv-weights-note">
          {cacheBudget === 0
            ? `The model file alone (${formatBytes(calc.weightsBytes)}) is larger than the budget (${formatBytes(calc.budgetBytes)}): nothing is left for the cache.`
            : `The model file's ${formatBytes(calc.weightsBytes)} of weights come off the budget first: ${formatBytes(cacheBudget)} is left for the cache.`}
        </p>
      )}
      {calc.budgetBytes !== null && calc.weightsBytes === null && fromGguf && (
        <p className="muted small" data-testid="kv-weights-note">
          The weights are not counted: the size of a model file on a board is not known here. Leave room for them.
        </p>
      )}
      {calc.impossible.length > 0 && (
        <p className="muted small" data-testid="kv-impossible">
          Not possible for this model: {calc.impossible.map((i) => i.kvType).join(', ')}. {calc.impossible[0]?.reason}
        </p>
      )}
      <div
        className="chart-box"
        style={{ height: 320 }}
        data-testid="kv-chart"
        data-curves={calc.curves.map((c) => c.kvType).join(',')}
      >
        <LineChartFrame
          data={data}
          margin={{ top: 8, right: 16, bottom: 8, left: 8 }}
          // Round ticks given (the context itself is the dashed line, not a tick: it read "7.5k 8.19k").
          x={{
            dataKey: 'ctx',
            domain: [0, xMax],
            ticks: xTicks,
            interval: 0,
            tickFormatter: (v: number) => formatTokensShort(v),
          }}
          y={{
            domain: [0, yAxis.top],
            ticks: yAxis.ticks,
            interval: 0,
            tickFormatter: (v: number) => formatBytesShort(v),
          }}
          tooltip={{
            formatter: (value) => formatBytes(Number(value)),
            labelFormatter: (x) => `${formatTokensShort(Number(x))} tokens`,
          }}
        >
          <ReferenceLine x={calc.ctx} stroke="var(--text-muted)" strokeDasharray="4 4" />
          {showBudget && cacheBudget !== null && (
            <ReferenceLine
              y={cacheBudget}
              stroke="#ff5d5d"
              strokeDasharray="6 3"
              label={calc.weightsBytes === null ? 'budget' : 'budget − weights'}
            />
          )}
          {calc.curves.map((c, i) => (
            <Line
              key={c.kvType}
              dataKey={c.kvType}
              name={`${c.kvType} (${formatBytesPerToken(c.bytesPerToken)})`}
              stroke={KV_COLORS[c.kvType]}
              strokeWidth={c.kvType === kvType ? 2.4 : 1.2}
              strokeDasharray={
                calc.curves.slice(0, i).some((e) => e.bytesPerToken === c.bytesPerToken) ? SAME_CURVE_DASH : undefined
              }
              {...LINE_PROPS}
            />
          ))}
        </LineChartFrame>
      </div>
    </>
  );
}
