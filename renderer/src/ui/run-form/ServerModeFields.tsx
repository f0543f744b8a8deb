// Server mode in the run form (`kvscope profile --server-url` and its options): the engine command
// starts an OpenAI-compatible server, the app holds a conversation through it, then stops it.
import { useRef } from 'react';
import { promptLines } from '../../state/run-form';
import { useAppStore, useAppStoreApi } from '../store-context';
import { Checkbox, Select, TextArea, TextInput, useFormSetter } from './RunFormControls';

/** Larger prompt files are refused: a conversation's prompts, not a corpus (the schema's limit per prompt is 100 kB). */
const MAX_PROMPT_FILE_BYTES = 1024 * 1024;

/** "Load from a file…": the file's lines become the prompts (read here; nothing is uploaded). */
function PromptFileButton() {
  const input = useRef<HTMLInputElement>(null);
  const setFormField = useFormSetter();
  const store = useAppStoreApi();
  const count = useAppStore((s) => promptLines(s.form.prompts).length);
  return (
    <div className="prompt-file">
      <button type="button" className="link-button" onClick={() => input.current?.click()} data-testid="prompts-file">
        Load prompts from a file…
      </button>
      <input
        ref={input}
        type="file"
        accept=".txt,text/plain"
        hidden
        data-testid="prompts-file-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          if (file.size > MAX_PROMPT_FILE_BYTES) {
            store.setState((s) => ({
              formErrors: { ...s.formErrors, prompts: `${file.name} is larger than 1 MiB: choose a file of prompts` },
            }));
            return;
          }
          void file.text().then((text) => setFormField('prompts', text.replace(/\r\n/g, '\n')));
        }}
      />
      <span className="muted small" data-testid="prompts-count">
        {count === 0 ? 'no prompt: a story opening is used' : `${count} prompt${count === 1 ? '' : 's'}`}
      </span>
    </div>
  );
}

export function ServerModeFields() {
  return (
    <div className="field-grid server-mode" data-testid="server-mode-fields">
      <TextInput
        field="serverUrl"
        label="Server address"
        hint="As seen from the target. Port 0: the port the server prints when it starts."
        wide
      />
      <Select<'chat' | 'completions'>
        field="serverApi"
        label="Endpoint"
        options={['chat', 'completions']}
        labels={{ chat: 'chat/completions', completions: 'completions' }}
      />
      <TextInput field="turns" label="Turns" placeholder="one per prompt" />
      <TextArea
        field="prompts"
        label="Prompts"
        hint="One per line: turn 1 says the first, turn 2 the second…; later turns ask the model to go on. Each turn sends the conversation back, so the context grows."
        placeholder="Once upon a time…"
        rows={3}
        extra={<PromptFileButton />}
      />
      <TextInput field="serverTokens" label="Tokens per turn" suffix="tok" />
      <TextInput field="serverTimeoutS" label="Wait for the server" suffix="s" />
      <Checkbox
        field="ignoreEos"
        label="Ignore end of text"
        hint="Ask the server for every token of each turn even past the end of the text (llama-server)."
      />
    </div>
  );
}
