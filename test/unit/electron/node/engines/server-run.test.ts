import { describe, expect, it } from 'vitest';
import { SERVER_MODE_DEFAULTS, ServerModeSchema } from '../../../../../shared/api/schemas';
import { conversationOf, engineOutputCollector } from '../../../../../electron/node/engines/server-run';

const server = (input: object) => ServerModeSchema.parse({ url: 'http://127.0.0.1:0/v1', ...input });

describe('conversationOf', () => {
  it('says the prompts in order, one turn each', () => {
    expect(conversationOf(server({ prompts: ['first', 'second', 'third'] }))).toEqual({
      prompt: 'first',
      followUps: ['second', 'third'],
      turns: 3,
    });
  });

  it('keeps the turns asked for (later turns go on past the last prompt)', () => {
    expect(conversationOf(server({ prompts: ['first'], turns: 4 }))).toEqual({
      prompt: 'first',
      followUps: [],
      turns: 4,
    });
  });

  it('without prompts: the default story opening, one turn', () => {
    expect(conversationOf(server({}))).toEqual({ prompt: SERVER_MODE_DEFAULTS.prompt, followUps: [], turns: 1 });
  });
});

describe('engineOutputCollector', () => {
  it('keeps what the engine printed, on both streams, up to 1 MiB', () => {
    const { listener, text } = engineOutputCollector();
    listener.onOutput?.('stderr', 'main: server is listening on http://127.0.0.1:8080\n');
    listener.onOutput?.('stdout', 'ok\n');
    expect(text()).toBe('main: server is listening on http://127.0.0.1:8080\nok\n');
    const chunk = 'x'.repeat(512 * 1024);
    for (let i = 0; i < 4; i++) listener.onOutput?.('stdout', chunk);
    // Appending stops once 1 MiB is reached: the last chunk that started below it is the last kept.
    expect(text().length).toBeLessThan(1024 * 1024 + chunk.length);
    expect(text().length).toBeGreaterThanOrEqual(1024 * 1024);
  });
});
