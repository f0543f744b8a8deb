// The run form's controls, each bound to one field of the store's form (renderer/src/state/
// run-form.ts) and named exactly by its label (LabelledField): text inputs, selects, checkboxes
// and the multi-line fields (engine command, prompts).
import { useCallback, type ReactNode } from 'react';
import type { AppState } from '../../state/store';
import type { RunForm, RunFormField, RunFormTextField as TextField } from '../../state/run-form';
import { LabelledField } from '../LabelledField';
import { useAppStore, useAppStoreApi } from '../store-context';

/** setFormField, called through the store (never detached from it). */
export function useFormSetter(): AppState['setFormField'] {
  const store = useAppStoreApi();
  return useCallback<AppState['setFormField']>((field, value) => store.getState().setFormField(field, value), [store]);
}

type BooleanField = { [K in keyof RunForm]: RunForm[K] extends boolean ? K : never }[keyof RunForm];

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

export function TextInput({
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

/** A multi-line field (the engine command, the prompts); `extra` sits under it (a file button). */
export function TextArea({
  field,
  label,
  hint,
  placeholder,
  rows,
  extra,
}: {
  field: 'command' | 'prompts';
  label: string;
  hint?: string;
  placeholder?: string;
  rows: number;
  extra?: ReactNode;
}) {
  const value = useAppStore((s) => s.form[field]);
  const invalid = useAppStore((s) => Boolean(s.formErrors[field]));
  const setFormField = useFormSetter();
  return (
    <div className="span-2">
      <FieldShell field={field} label={label} hint={hint}>
        {({ id, describedBy }) => (
          <textarea
            id={id}
            className="mono"
            rows={rows}
            value={value}
            spellCheck={false}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            placeholder={placeholder}
            onChange={(e) => setFormField(field, e.target.value)}
            data-testid={`field-${field}`}
          />
        )}
      </FieldShell>
      {extra}
    </div>
  );
}

export function Select<T extends string>({
  field,
  label,
  options,
  labels,
}: {
  field: 'kvType' | 'mode' | 'commandKvType' | 'serverApi';
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

export function Checkbox({ field, label, hint }: { field: BooleanField; label: string; hint: string }) {
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
