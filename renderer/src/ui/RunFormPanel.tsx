// The run form: what runs (the demo workload or an engine command, possibly a server), where
// (the selected board), how it is measured, and as one run or a context sweep. Everything
// `kvscope profile` can be told, in the form's words (renderer/src/state/run-form.ts validates).
import { useEffect, useLayoutEffect, useRef } from 'react';
import { KvModeSchema, KvTypeSchema, type KvMode, type KvType } from '../../../shared/api/schemas';
import { isBusy } from '../state/live-run-slice';
import { useAppStore, useAppStoreApi } from './store-context';
import { Checkbox, Select, TextArea, TextInput, useFormSetter } from './run-form/RunFormControls';
import { CollectorFields } from './run-form/CollectorFields';
import { ServerModeFields } from './run-form/ServerModeFields';
import { SweepProgress } from './run-form/SweepProgress';
import './run-form/run-form.css';

const MODE_LABELS: Record<KvMode, string> = {
  growth: 'growth (paged blocks)',
  reserved: 'reserved (llama.cpp)',
  window: 'sliding window',
};

/** A sweep sets the context of each run: the Context field has no say then. */
const useSweeping = () => useAppStore((s) => s.form.sweep.trim() !== '');

function DemoFields() {
  const mode = useAppStore((s) => s.form.mode);
  const sweeping = useSweeping();
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
      <TextInput
        field="ctx"
        label="Context"
        suffix="tok"
        disabled={sweeping}
        placeholder={sweeping ? 'swept' : undefined}
      />
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
  const serverMode = useAppStore((s) => s.form.serverMode);
  const sweeping = useSweeping();
  return (
    <div className="field-grid">
      <TextArea
        field="command"
        label="Engine command on the target"
        hint="{ctx} is replaced by the context size."
        placeholder="llama-cli -m model.gguf -c {ctx} -n 512 -p 'Hello'"
        rows={3}
      />
      <TextInput
        field="commandCtx"
        label="Context"
        suffix="tok"
        disabled={sweeping}
        placeholder={sweeping ? 'swept' : 'optional'}
      />
      <Select<KvType | ''> field="commandKvType" label="KV type" options={['', ...KvTypeSchema.options]} />
      {!serverMode && <TextInput field="commandTokens" label="Stop after" suffix="tok" placeholder="optional" wide />}
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
        hint={
          serverMode
            ? "Empty in server mode: the conversation's streamed tokens are counted, not the server's output."
            : "A regular expression matching once per generated token in the engine's output; empty = each output chunk counts."
        }
        placeholder="optional"
        wide
      />
      <Checkbox
        field="serverMode"
        label="The command starts a server"
        hint="An OpenAI-compatible server (llama-server, vLLM, ollama…): the app talks to it, then stops it."
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
        // While it reads the button stays focusable (aria-disabled, a press ignored): disabled, it
        // dropped the focus of the user who pressed it to <body> until the header came.
        aria-disabled={current?.status === 'loading' || undefined}
        onClick={() => {
          if (current?.status !== 'loading') void readRunGgufHeader();
        }}
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

/**
 * Start refused for the form's errors (the button, or Ctrl+Enter from anywhere): the focus goes to
 * the first invalid field, whose error is its description (aria-invalid, aria-describedby), so it is
 * seen and announced. Pressing Start left the focus on the button and the error possibly out of view.
 */
function useFocusFirstInvalid() {
  const form = useRef<HTMLFormElement>(null);
  const refusedStarts = useAppStore((s) => s.refusedStarts);
  useEffect(() => {
    if (refusedStarts === 0) return;
    const field = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    field?.scrollIntoView({ block: 'nearest' });
    field?.focus();
  }, [refusedStarts]);
  return form;
}

/**
 * Start disables the form and itself, Stop disables itself: the control that held the focus (Start
 * pressed with the mouse or Enter, a field Ctrl+Enter was pressed in, Stop) becomes disabled, and
 * Chromium then moves the focus to <body>, where a screen reader loses its place and the next Tab
 * starts again near the page's top. So the focus goes to the button that can be pressed now (Stop
 * while a run starts or goes, Start once it has ended), and while neither can (stopping) to the
 * pair's group, from which it goes on to Start. Checked before the browser's own fix-up runs (a
 * layout effect), while the disabled control still holds the focus.
 */
function useRunButtonsFocus(active: boolean, stopping: boolean) {
  const panel = useRef<HTMLElement>(null);
  const group = useRef<HTMLDivElement>(null);
  const start = useRef<HTMLButtonElement>(null);
  const stop = useRef<HTMLButtonElement>(null);
  // A disabled fieldset drops its field's focus at once (before any effect): remembered here.
  const dropped = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const el = panel.current;
    if (!el) return;
    const onOut = (e: FocusEvent) => {
      dropped.current = e.relatedTarget === null && e.target instanceof HTMLElement ? e.target : null;
    };
    el.addEventListener('focusout', onOut);
    return () => el.removeEventListener('focusout', onOut);
  }, []);
  useLayoutEffect(() => {
    let held = document.activeElement;
    if (held === document.body && dropped.current?.isConnected) held = dropped.current;
    dropped.current = null;
    if (!(held instanceof HTMLElement) || !panel.current?.contains(held)) return;
    const fromGroup = held === group.current;
    if (!fromGroup && !held.matches(':disabled')) return;
    const order = fromGroup || held === stop.current ? [start.current, stop.current] : [stop.current, start.current];
    const next = order.find((b) => b !== null && !b.disabled);
    if (next) next.focus();
    else if (!fromGroup) group.current?.focus();
  }, [active, stopping]);
  return { panel, group, start, stop };
}

export function RunFormPanel() {
  const engineKind = useAppStore((s) => s.form.engineKind);
  const serverMode = useAppStore((s) => s.form.engineKind === 'command' && s.form.serverMode);
  const phase = useAppStore((s) => s.run.phase);
  const active = useAppStore(isBusy);
  // As `profile --sweep` warns: only a reserving engine's memory follows the context size.
  const sweepHint = useAppStore((s) =>
    s.form.engineKind === 'demo' && s.form.mode !== 'reserved' && s.form.sweep.trim() !== ''
      ? `The demo in ${s.form.mode} mode does not reserve memory per context: the sweep will show a flat curve (choose reserved).`
      : 'One run per context size, one after the other, e.g. 512, 2048, 8k; empty = one run.',
  );
  const generalError = useAppStore((s) => s.formErrors.general ?? s.formErrors.target);
  const setFormField = useFormSetter();
  const store = useAppStoreApi();
  const startRun = () => store.getState().startRun();
  const stopRun = () => store.getState().stopRun();
  const targetLabel = useAppStore((s) => s.boards.find((b) => b.id === s.selectedBoardId)?.label ?? null);
  const form = useFocusFirstInvalid();
  const {
    panel: panelRef,
    group: groupRef,
    start: startRef,
    stop: stopRef,
  } = useRunButtonsFocus(active, phase === 'stopping');

  return (
    // data-run-form: where the Start shortcut acts from on every view (dashboard-hooks.ts useShortcuts).
    <section ref={panelRef} className="panel run-form" aria-labelledby="workload-heading" data-run-form>
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
        ref={form}
        onSubmit={(e) => {
          e.preventDefault();
          void startRun();
        }}
      >
        <fieldset disabled={active}>
          {engineKind === 'demo' ? <DemoFields /> : <CommandFields />}
          {serverMode && (
            <>
              <h3 className="subhead">Server</h3>
              <ServerModeFields />
            </>
          )}
          <h3 className="subhead">Measurement</h3>
          <div className="field-grid">
            <TextInput field="sweep" label="Context sweep" hint={sweepHint} placeholder="optional" wide />
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
            <CollectorFields />
          </div>
        </fieldset>
        {generalError && (
          <p className="field-error" role="alert" data-testid="form-error">
            {generalError}
          </p>
        )}
        <div className="actions" ref={groupRef} tabIndex={-1} role="group" aria-label="Run controls">
          <button type="submit" ref={startRef} className="button-primary" disabled={active} data-testid="start-run">
            {phase === 'starting' ? 'Starting…' : 'Start'}
          </button>
          <button
            type="button"
            ref={stopRef}
            className="button-danger"
            disabled={!active || phase === 'stopping'}
            onClick={() => void stopRun()}
            data-testid="stop-run"
          >
            {phase === 'stopping' ? 'Stopping…' : 'Stop'}
          </button>
        </div>
      </form>
      <SweepProgress />
    </section>
  );
}
