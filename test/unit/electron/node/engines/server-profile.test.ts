import { describe, expect, it } from 'vitest';
import { listeningPortFrom } from '../../../../../electron/node/engines/server-profile';

describe('listeningPortFrom', () => {
  it("reads the port from llama-server's start line", () => {
    // llama.cpp tools/server: `LOG_INF("%s: server is listening on %s - starting the main loop\n", ...)`
    expect(listeningPortFrom('main: server is listening on http://127.0.0.1:8080 - starting the main loop\n')).toBe(
      8080,
    );
  });

  it('reads it after a bracketed IPv6 host and a bare host name', () => {
    expect(listeningPortFrom('HTTP server listening on [::1]:39217')).toBe(39217);
    expect(listeningPortFrom('Uvicorn running on localhost:8000 (Press CTRL+C to quit)')).toBe(8000);
  });

  it('is null without a listening line or with a port outside 1..65535', () => {
    expect(listeningPortFrom('loading model\nllama_model_loader: loaded meta data')).toBeNull();
    expect(listeningPortFrom('listening on 127.0.0.1:99999')).toBeNull();
    expect(listeningPortFrom('listening on 127.0.0.1:0')).toBeNull();
  });
});
