// Questions a connection asks (an unknown host key, a password, a key passphrase), as the main
// side sends them. They queue here oldest first; the dialog answers the first. A prompt closes
// when it is answered (in this window or another), times out, or is cancelled: promptClosed.
import {
  CredentialPromptSchema,
  HostKeyPromptSchema,
  PromptClosedSchema,
  type PendingPrompt,
} from '../../../shared/api/schemas';
import { errorText } from './slices';
import type { PromptsSlice, SliceCreator } from './types';

const idOf = (p: PendingPrompt) => p.prompt.requestId;

export const createPromptsSlice: SliceCreator<PromptsSlice> = (set, _get, { api }) => {
  const drop = (requestId: string) => set((s) => ({ prompts: s.prompts.filter((p) => idOf(p) !== requestId) }));
  const add = (prompt: PendingPrompt) =>
    set((s) =>
      s.prompts.some((p) => idOf(p) === idOf(prompt)) ? {} : { prompts: [...s.prompts, prompt], promptError: null },
    );

  return {
    prompts: [],
    secretStorage: null,
    promptError: null,

    async loadPrompts() {
      try {
        const open = await api.listPrompts({});
        // Keep the order the main side knows; prompts that closed meanwhile are gone from it.
        set({ prompts: open });
      } catch (error) {
        console.warn(`kvscope: listPrompts failed: ${errorText(error)}`);
      }
    },

    async loadSecretStorage() {
      try {
        set({ secretStorage: await api.secretStorage({}) });
      } catch {
        set({
          secretStorage: {
            available: false,
            backend: 'none',
            reason: 'KVScope could not tell whether passwords can be remembered here.',
          },
        });
      }
    },

    handlePromptEvent(event, payload) {
      if (event === 'hostKeyPrompt') {
        const parsed = HostKeyPromptSchema.safeParse(payload);
        if (parsed.success) add({ kind: 'hostKey', prompt: parsed.data });
      } else if (event === 'credentialPrompt') {
        const parsed = CredentialPromptSchema.safeParse(payload);
        if (parsed.success) add({ kind: 'credential', prompt: parsed.data });
      } else {
        const parsed = PromptClosedSchema.safeParse(payload);
        if (parsed.success) drop(parsed.data.requestId);
      }
    },

    async answerHostKey(requestId, accept) {
      drop(requestId);
      try {
        const { ok } = await api.answerHostKey({ requestId, accept });
        if (!ok && accept)
          set({
            promptError:
              'The host key question had already closed (timed out or answered in another window); nothing was stored.',
          });
      } catch (error) {
        set({ promptError: `Could not answer: ${errorText(error)}` });
      }
    },

    async answerCredential(requestId, value, remember) {
      drop(requestId);
      try {
        const { ok } = await api.answerCredential({ requestId, value, remember });
        if (!ok && value !== null)
          set({ promptError: 'The question had already closed (timed out or answered in another window).' });
      } catch (error) {
        set({ promptError: `Could not answer: ${errorText(error)}` });
      }
    },
  };
};
