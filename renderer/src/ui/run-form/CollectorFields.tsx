// The run form's collectors: each one of shared/collectors/registry.ts switched on or off, and the
// interval of those with one of their own, as `kvscope profile --no-<id>` and `--<id>-interval-ms`
// do. Folded by default: the defaults suit most runs, and the summary says what differs. A
// collector the selected board's probe found no source for is marked "not on this board" with the
// probe's reason (shared/collectors/collector-plan.ts decides, as for the run); its switch stays
// (the tool may have been installed since), and a board not probed yet has no marks.
import { useState } from 'react';
import { COLLECTORS } from '../../../../shared/collectors/registry';
import type { CollectorDefinition } from '../../../../shared/collectors/collector';
import { collectorUnavailable } from '../../../../shared/collectors/collector-plan';
import type { TargetFacts } from '../../../../shared/run/target-facts';
import type { AppState } from '../../state/types';
import { collectorField, type CollectorFormEntry, type RunForm } from '../../state/run-form';
import { LabelledField } from '../LabelledField';
import { useAppStore } from '../store-context';
import { useFormSetter } from './RunFormControls';

const NO_ENTRY: CollectorFormEntry = { off: false, intervalMs: '' };

function entryOf(collectors: RunForm['collectors'], id: string): CollectorFormEntry {
  return Object.hasOwn(collectors, id) ? (collectors[id] ?? NO_ENTRY) : NO_ENTRY;
}

/** The selected board's probe facts, or null while it has not been probed (or the probe failed). */
function selectedBoardFacts(s: AppState): TargetFacts | null {
  const probe = s.selectedBoardId ? s.probes[s.selectedBoardId] : undefined;
  return probe?.status === 'done' ? probe.result.probe : null;
}

/** "all on, default intervals", or what differs: "perf off · pmap every 2000 ms · tegrastats not on this board". */
function summaryOf(collectors: RunForm['collectors'], facts: TargetFacts | null): string {
  const parts: string[] = [];
  const missing: string[] = [];
  for (const def of COLLECTORS) {
    const entry = entryOf(collectors, def.id);
    if (entry.off) parts.push(`${def.id} off`);
    else if (collectorUnavailable(def, facts)) missing.push(def.id);
    else if (entry.intervalMs.trim() !== '' && def.interval !== 'run')
      parts.push(`${def.id} every ${entry.intervalMs.trim()} ms`);
  }
  if (parts.length === 0 && missing.length === 0) return 'all on, default intervals';
  if (missing.length > 0) parts.push(`${missing.join(', ')} not on this board`);
  return parts.join(' · ');
}

function CollectorRow({ def }: { def: CollectorDefinition }) {
  const collectors = useAppStore((s) => s.form.collectors);
  const field = collectorField(def.id);
  const error = useAppStore((s) => s.formErrors[field]);
  const setFormField = useFormSetter();
  const entry = entryOf(collectors, def.id);
  // The facts object is the store's own (a stable reference); the reason is worked out here.
  const facts = useAppStore(selectedBoardFacts);
  const missing = collectorUnavailable(def, facts);
  const update = (patch: Partial<CollectorFormEntry>) =>
    setFormField('collectors', { ...collectors, [def.id]: { ...entry, ...patch } });
  const id = `run-field-${field}`;
  const range = def.interval;
  return (
    <div
      className={`collector-row${missing ? ' collector-missing' : ''}`}
      data-testid={`collector-${def.id}`}
      data-available={missing ? 'no' : undefined}
    >
      <span className="check">
        <input
          id={`${id}-on`}
          type="checkbox"
          checked={!entry.off}
          aria-describedby={missing ? `${id}-title ${id}-missing` : `${id}-title`}
          onChange={(e) => update({ off: !e.target.checked })}
          data-testid={`field-${field}-on`}
        />
        <label htmlFor={`${id}-on`}>{def.id}</label>
      </span>
      <span className="field-hint" id={`${id}-title`}>
        {def.title}
      </span>
      {missing && (
        <span className="field-hint collector-missing-note" id={`${id}-missing`} title={missing.reason}>
          not on this board: {missing.reason}
        </span>
      )}
      {range === 'run' ? (
        <span className="field-hint">every sample (the run&apos;s interval)</span>
      ) : (
        <LabelledField
          id={id}
          label={`${def.id} every`}
          hint={`${range.minMs}–${range.maxMs} ms, default ${range.defaultMs}`}
          error={error}
          errorTestId={`error-${field}`}
        >
          {(describedBy) => (
            <span className="input-wrap">
              <input
                id={id}
                type="text"
                inputMode="numeric"
                value={entry.intervalMs}
                placeholder={String(range.defaultMs)}
                disabled={entry.off}
                aria-invalid={Boolean(error)}
                aria-describedby={[describedBy, `${id}-unit`].filter(Boolean).join(' ')}
                spellCheck={false}
                onChange={(e) => update({ intervalMs: e.target.value })}
                data-testid={`field-${field}`}
              />
              <span className="input-suffix" id={`${id}-unit`}>
                ms
              </span>
            </span>
          )}
        </LabelledField>
      )}
    </div>
  );
}

export function CollectorFields() {
  const summary = useAppStore((s) => summaryOf(s.form.collectors, selectedBoardFacts(s)));
  // Opens by itself when one of its fields is wrong (the error must be seen where it is), and stays
  // open while the user mends it (editing clears the error).
  const invalid = useAppStore((s) => COLLECTORS.some((def) => s.formErrors[collectorField(def.id)] !== undefined));
  const [open, setOpen] = useState(false);
  // Adjusted while rendering when `invalid` turns true (React's pattern for state that follows a prop).
  const [wasInvalid, setWasInvalid] = useState(false);
  if (invalid !== wasInvalid) {
    setWasInvalid(invalid);
    if (invalid) setOpen(true);
  }
  return (
    <details
      className="collectors span-2"
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
      data-testid="collectors"
    >
      <summary>
        Collectors <span className="muted small">{summary}</span>
      </summary>
      {COLLECTORS.map((def) => (
        <CollectorRow key={def.id} def={def} />
      ))}
    </details>
  );
}
