import { useCallback, type ReactNode } from 'react';
import type { AppState } from '../state/store';
import { KvModeSchema, KvTypeSchema, type KvMode, type KvType } from '../../../shared/api/schemas';
import type { RunForm, RunFormField } from '../state/run-form';
import { isActivePhase } from '../state/live-run-slice';
import { LabelledField } from './LabelledField';
import { useAppStore, useAppStoreApi } from './store-context';

/** setFormField, called through the store (never detached from it). */
function useFormSetter(): AppState['setFormField'] {
  const store = useAppStoreApi();
  return useCallback<AppState['setFormField']>((field, value) => store.getState().setFormField(field, value), [store]);
}

type TextField = { [K in keyof RunForm]: RunForm[K] extends string ? K : never }[keyof RunForm];

/** A run-form field (see LabelledField), its error from the store's form errors. */
function FieldShell({
  field,
  label,
  hint,
  children,
}: {
  field: RunFormField;
  label: string;
  hint?: string;
  children: (ids: { id: string; describedBy: string | undefined }) => ReactNode;
}) {
  const id = `run-field-${field}`;
  const error = useAppStore((s) => s.formErrors[field]);
  return (
    <LabelledField id={id} label={label} hint={hint} error={error} errorTestId={`error-${field}`}>
      {(describedBy) => children({ id, describedBy })}
    </LabelledField>
  );
}

function TextInput({
  field,
  label,
  hint,
  suffix,
  placeholder,
  disabled,
  wide,
}: {
  field: TextField;
  label: string;
  hint?: string;
  suffix?: string;
  placeholder?: string;
  disabled?: boolean;
  wide?: boolean;
}) {
  const value = useAppStore((s) => String(s.form[field]));
  const invalid = useAppStore((s) => Boolean(s.formErrors[field]));
  const setFormField = useFormSetter();
  return (
    <div className={wide ? 'span-2' : undefined}>
      <FieldShell field={field} label={label} hint={hint}>
        {({ id, describedBy }) => (
          <span className="input-wrap">
            <input
              id={id}
              type="text"
              inputMode={suffix ? 'decimal' : undefined}
              value={value}
              placeholder={placeholder}
              disabled={disabled}
              aria-invalid={invalid}
              aria-describedby={[describedBy, suffix ? `${id}-unit` : undefined].filter(Boolean).join(' ') || undefined}
              spellCheck={false}
              onChange={(e) => setFormField(field, e.target.value as never)}
              data-testid={`field-${field}`}
            />
            {suffix && (
              <span className="input-suffix" id={`${id}-unit`}>
                {suffix}
              </span>
            )}
          </span>
        )}
      </FieldShell>
    </div>
  );
}

function Select<T extends string>({
  field,
  label,
  options,
  labels,
}: {
  field: 'kvType' | 'mode' | 'commandKvType';
  label: string;
  options: readonly T[];
  labels?: Partial<Record<T, string>>;
}) {
  const value = useAppStore((s) => s.form[field]);
  const setFormField = useFormSetter();
  return (
    <FieldShell field={field} label={label}>
      {({ id, describedBy }) => (
        <select
          id={id}
          value={value}
          aria-describedby={describedBy}
          onChange={(e) => setFormField(field, e.target.value as never)}
          data-testid={`field-${field}`}
        >
          {options.map((option) => (
            <option key={option} value={option}>
              {labels?.[option] ?? (option || 'from model')}
            </option>
          ))}
        </select>
      )}
    </FieldShell>
  );
}

function Checkbox({ field, label, hint }: { field: 'keepRunning'; label: string; hint: string }) {
  const checked = useAppStore((s) => s.form[field]);
  const setFormField = useFormSetter();
  const id = `run-field-${field}`;
  return (
    <div className="field span-2">
      <span className="check">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          aria-describedby={`${id}-hint`}
          onChange={(e) => setFormField(field, e.target.checked)}
          data-testid={`field-${field}`}
        />
        <label htmlFor={id}>{label}</label>
      </span>
      <span className="field-hint" id={`${id}-hint`}>
        {hint}
      </span>
    </div>
  );
}

const MODE_LABELS: Record<KvMode, string> = {
  growth: 'growth (paged blocks)',
  reserved: 'reserved (llama.cpp)',
  window: 'sliding window',
};

function DemoFields() {
  const mode = useAppStore((s) => s.form.mode);
  return (
    <div className="field-grid">
      <TextInput field="layers" label="Layers" />
      <TextInput field="kvHeads" label="KV heads" />
      <TextInput field="headDim" label="Head dim" />
      <Select<KvType> field="kvType" label="KV type" options={KvTypeSchema.options} />
      <TextInput field="tokens" label="Tokens" />
      <TextInput field="tps" label="Speed" suffix="tok/s" />
      <div className="span-2">
        <Select<KvMode> field="mode" label="KV mode" options={KvModeSchema.options} labels={MODE_LABELS} />
      </div>
      <TextInput field="ctx" label="Context" suffix="tok" />
      <TextInput field="block" label="Block" suffix="tok" />
      <TextInput
        field="window"
        label="Window"
        suffix="tok"
        disabled={mode !== 'window'}
        placeholder={mode === 'window' ? 'required' : 'n/a'}
      />
      <TextInput field="weightsMb" label="Weights" suffix="MB" />
    </div>
  );
}

function CommandFields() {
  const command = useAppStore((s) => s.form.command);
  const invalid = useAppStore((s) => Boolean(s.formErrors.command));
  const setFormField = useFormSetter();
  return (
    <div className="field-grid">
      <div className="span-2">
        <FieldShell field="command" label="Engine command on the target" hint="{ctx} is replaced by the context size.">
          {({ id, describedBy }) => (
            <textarea
              id={id}
              className="mono"
              rows={3}
              value={command}
              spellCheck={false}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              placeholder="llama-cli -m model.gguf -c {ctx} -n 512 -p 'Hello'"
              onChange={(e) => setFormField('command', e.target.value)}
              data-testid="field-command"
            />
          )}
        </FieldShell>
      </div>
      <TextInput field="commandCtx" label="Context" suffix="tok" placeholder="optional" />
      <Select<KvType | ''> field="commandKvType" label="KV type" options={['', ...KvTypeSchema.options]} />
      <TextInput field="commandTokens" label="Stop after" suffix="tok" placeholder="optional" wide />
      <TextInput
        field="gguf"
        label="GGUF model on the target"
        hint="Its header gives the exact KV theory (only the header is read)."
        placeholder="optional: /models/model.gguf"
        wide
      />
      <GgufHeaderPreview />
      <TextInput
        field="tokenRegex"
        label="Token pattern"
        hint="A regular expression matching once per generated token in the engine's output; empty = each output chunk counts."
        placeholder="optional"
        wide
      />
    </div>
  );
}

/** The header of the run's GGUF, read on the selected target before the run starts. */
function GgufHeaderPreview() {
  const path = useAppStore((s) => s.form.gguf.trim());
  const targetId = useAppStore((s) => s.selectedBoardId);
  const header = useAppStore((s) => s.runGgufHeader);
  const readRunGgufHeader = useAppStore((s) => s.readRunGgufHeader);
  if (!path || !targetId) return null;
  const current = header && header.path === path && header.targetId === targetId ? header : null;
  return (
    <div className="span-2 gguf-preview" data-testid="gguf-preview">
      <button
        type="button"
        className="link-button"
        disabled={current?.status === 'loading'}
        onClick={() => void readRunGgufHeader()}
        data-testid="gguf-read-header"
      >
        {current?.status === 'loading' ? 'Reading the header…' : 'Show its header'}
      </button>
      {current?.status === 'ready' && (
        <p className="muted small" data-testid="gguf-header">
          {current.summary}
        </p>
      )}
      {current?.status === 'error' && (
        <p className="field-error" data-testid="gguf-header-error">
          {current.error}
        </p>
      )}
    </div>
  );
}

export function RunFormPanel() {
  const engineKind = useAppStore((s) => s.form.engineKind);
  const phase = useAppStore((s) => s.run.phase);
  const generalError = useAppStore((s) => s.formErrors.general ?? s.formErrors.target);
  const setFormField = useFormSetter();
  const store = useAppStoreApi();
  const startRun = () => store.getState().startRun();
  const stopRun = () => store.getState().stopRun();
  const active = isActivePhase(phase);
  const targetLabel = useAppStore((s) => s.boards.find((b) => b.id === s.selectedBoardId)?.label ?? null);

  return (
    <section className="panel run-form" aria-labelledby="workload-heading">
      <div className="panel-head">
        <h2 id="workload-heading">Workload</h2>
        {targetLabel && (
          <span
            className="muted small run-target"
            data-testid="run-target"
            title="Select another target in the list above"
          >
            on {targetLabel}
          </span>
        )}
      </div>
      <div className="segmented" role="radiogroup" aria-label="Workload kind">
        <button
          type="button"
          role="radio"
          aria-checked={engineKind === 'demo'}
          disabled={active}
          onClick={() => setFormField('engineKind', 'demo')}
          data-testid="engine-kind-demo"
        >
          Demo workload
        </button>
        <button
          type="button"
          role="radio"
          aria-checked={engineKind === 'command'}
          disabled={active}
          onClick={() => setFormField('engineKind', 'command')}
          data-testid="engine-kind-command"
        >
          Engine command
        </button>
      </div>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void startRun();
        }}
      >
        <fieldset disabled={active}>
          {engineKind === 'demo' ? <DemoFields /> : <CommandFields />}
          <h3 className="subhead">Measurement</h3>
          <div className="field-grid">
            <TextInput
              field="budget"
              label="Memory budget"
              placeholder="e.g. 2 GiB"
              hint="OOM horizon is computed against it"
              wide
            />
            <TextInput field="intervalMs" label="Sample every" suffix="ms" wide />
            <Checkbox
              field="keepRunning"
              label="Keep running"
              hint="The engine goes on if the app quits or the link is lost for good."
            />
          </div>
        </fieldset>
        {generalError && (
          <p className="field-error" role="alert" data-testid="form-error">
            {generalError}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="button-primary" disabled={active} data-testid="start-run">
            {phase === 'starting' ? 'Starting…' : 'Start'}
          </button>
          <button
            type="button"
            className="button-danger"
            disabled={!active || phase === 'stopping'}
            onClick={() => void stopRun()}
            data-testid="stop-run"
          >
            {phase === 'stopping' ? 'Stopping…' : 'Stop'}
          </button>
        </div>
      </form>
    </section>
  );
}
