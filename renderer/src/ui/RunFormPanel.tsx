import type { ReactNode } from 'react';
import { KvModeSchema, KvTypeSchema, type KvMode, type KvType } from '../../../shared/api/schemas';
import type { RunForm, RunFormField } from '../state/run-form';
import { isActivePhase } from '../state/live-run-slice';
import { useAppStore } from './store-context';

type TextField = { [K in keyof RunForm]: RunForm[K] extends string ? K : never }[keyof RunForm];

function FieldShell({
  field,
  label,
  hint,
  children,
}: {
  field: RunFormField;
  label: string;
  hint?: string;
  children: ReactNode;
}) {
  const error = useAppStore((s) => s.formErrors[field]);
  return (
    <label className={`field${error ? ' field-invalid' : ''}`}>
      <span className="field-label">{label}</span>
      {children}
      {error ? (
        <span className="field-error" data-testid={`error-${field}`}>
          {error}
        </span>
      ) : (
        hint && <span className="field-hint">{hint}</span>
      )}
    </label>
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
  const setFormField = useAppStore((s) => s.setFormField);
  return (
    <div className={wide ? 'span-2' : undefined}>
      <FieldShell field={field} label={label} hint={hint}>
        <span className="input-wrap">
          <input
            type="text"
            inputMode={suffix ? 'decimal' : undefined}
            value={value}
            placeholder={placeholder}
            disabled={disabled}
            aria-invalid={invalid}
            spellCheck={false}
            onChange={(e) => setFormField(field, e.target.value as never)}
            data-testid={`field-${field}`}
          />
          {suffix && <span className="input-suffix">{suffix}</span>}
        </span>
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
  const setFormField = useAppStore((s) => s.setFormField);
  return (
    <FieldShell field={field} label={label}>
      <select
        value={value}
        onChange={(e) => setFormField(field, e.target.value as never)}
        data-testid={`field-${field}`}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {labels?.[option] ?? (option || 'from model')}
          </option>
        ))}
      </select>
    </FieldShell>
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
  const setFormField = useAppStore((s) => s.setFormField);
  return (
    <div className="field-grid">
      <div className="span-2">
        <FieldShell field="command" label="Engine command on the target" hint="{ctx} is replaced by the context size.">
          <textarea
            className="mono"
            rows={3}
            value={command}
            spellCheck={false}
            aria-invalid={invalid}
            placeholder="llama-cli -m model.gguf -c {ctx} -n 512 -p 'Hello'"
            onChange={(e) => setFormField('command', e.target.value)}
            data-testid="field-command"
          />
        </FieldShell>
      </div>
      <TextInput field="commandCtx" label="Context" suffix="tok" placeholder="optional" />
      <Select<KvType | ''> field="commandKvType" label="KV type" options={['', ...KvTypeSchema.options]} />
      <TextInput field="commandTokens" label="Stop after" suffix="tok" placeholder="optional" wide />
    </div>
  );
}

export function RunFormPanel() {
  const engineKind = useAppStore((s) => s.form.engineKind);
  const phase = useAppStore((s) => s.run.phase);
  const generalError = useAppStore((s) => s.formErrors.general ?? s.formErrors.target);
  const setFormField = useAppStore((s) => s.setFormField);
  const startRun = useAppStore((s) => s.startRun);
  const stopRun = useAppStore((s) => s.stopRun);
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
