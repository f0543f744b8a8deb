// The board list's state without React: the board form (renderer/src/state/board-form.ts),
// the boards slice (save, remove, import, probe) and the prompts slice (dialog queue, answers,
// promptClosed from another window) over a fake KvScopeApi.
import { describe, expect, it, vi } from 'vitest';
import type { EventPayload, MethodOutput } from '../../../../../shared/api/contract';
import { fakeApi } from '../../../../helpers/fake-api';
import type { BoardInfo } from '../../../../../shared/api/schemas';
import { buildBoard, draftFromBoard, EMPTY_BOARD } from '../../../../../renderer/src/state/board-form';
import { createMemoryRing } from '../../../../../renderer/src/live/ring-buffer';
import { connectApiEvents, createAppStore } from '../../../../../renderer/src/state/store';
import { splitFix } from '../../../../../renderer/src/ui/DeviceCard';

const LOCAL: BoardInfo = { id: 'local', label: 'This computer', spec: { kind: 'local' } };

function boardsApi() {
  let saved: BoardInfo[] = [];
  const { api, emit } = fakeApi({
    listBoards: vi.fn(() => Promise.resolve([LOCAL, ...saved])),
    saveBoard: vi.fn((input) => {
      const info = { id: input.id ?? `board-${saved.length + 1}`, label: input.label, spec: input.spec };
      saved = [...saved.filter((t) => t.id !== info.id), info];
      return Promise.resolve(info);
    }),
    removeBoard: vi.fn(({ id }: { id: string }) => {
      saved = saved.filter((t) => t.id !== id);
      return Promise.resolve({ ok: true });
    }),
    importSshConfig: vi.fn(() =>
      Promise.resolve({
        path: '/home/e/.ssh/config',
        found: true,
        hosts: [
          {
            alias: 'orin',
            hostName: '10.0.0.5',
            user: 'nvidia',
            proxyJump: [],
            identityFiles: [],
            unsupported: [],
            spec: { kind: 'ssh' as const, host: '10.0.0.5', user: 'nvidia', alias: 'orin' },
          },
        ],
      }),
    ),
    probeBoard: vi.fn(),
    answerHostKey: vi.fn(() => Promise.resolve({ ok: true })),
    answerCredential: vi.fn(() => Promise.resolve({ ok: true })),
    listPrompts: vi.fn(() => Promise.resolve([])),
    secretStorage: vi.fn(() =>
      Promise.resolve({
        available: false,
        backend: 'none',
        reason: 'Browser mode does not remember passwords',
      }),
    ),
  });
  const store = createAppStore({ api, ring: createMemoryRing(100) });
  connectApiEvents(store, api);
  return { api, emit, store };
}

describe('the board form', () => {
  it('builds the saveBoard input from what was typed, defaulting the name to the host', () => {
    const built = buildBoard(
      {
        ...EMPTY_BOARD,
        host: ' orin.lan ',
        port: '2222',
        user: 'nvidia',
        identityFile: '~/.ssh/id_ed25519',
        jump: 'jump@bastion:22\n  , other',
        knownHostsFile: '',
      },
      null,
    );
    expect(built).toEqual({
      ok: true,
      input: {
        label: 'orin.lan',
        spec: {
          kind: 'ssh',
          host: 'orin.lan',
          port: 2222,
          user: 'nvidia',
          identityFile: '~/.ssh/id_ed25519',
          jump: ['jump@bastion:22', 'other'],
        },
      },
    });
  });

  it('puts each problem next to its field', () => {
    const built = buildBoard(
      {
        ...EMPTY_BOARD,
        label: 'x'.repeat(101),
        host: '',
        port: '99999',
        identityFile: 'id_rsa',
        user: 'bad user',
        keepaliveSec: 'x',
      },
      'b-1',
    );
    expect(built.ok).toBe(false);
    if (built.ok) return;
    expect(built.errors).toMatchObject({
      label: 'at most 100 characters',
      host: 'required',
      port: 'a whole number from 1 to 65535',
      identityFile: expect.stringMatching(/absolute path/),
      user: 'user may contain letters, digits, . _ - only',
      keepaliveSec: 'a whole number from 0 to 3,600 seconds',
    });
  });

  // The keepalive past its limit said zod's "Too big: expected number to be <=3600".
  it('says what the keepalive allows, in seconds, when it is past its limit', () => {
    const built = buildBoard({ ...EMPTY_BOARD, label: 'orin', host: 'orin.local', keepaliveSec: '5000' }, 'b-1');
    expect(built).toEqual({ ok: false, errors: { keepaliveSec: 'a whole number from 0 to 3,600 seconds' } });
  });

  it('flags the host, not the name, when both are blank (the name defaults to the host)', () => {
    const built = buildBoard({ ...EMPTY_BOARD }, null);
    expect(built).toEqual({ ok: false, errors: { host: 'required' } });
  });

  it.each([
    ['user@bastion:99999', 'port must be 1–65535 in user@bastion:99999'],
    ['[fe80::1]:0', 'port must be 1–65535 in [fe80::1]:0'],
    ['bastion:', 'port must be 1–65535 in bastion:'],
    ['user@bastion:2222', undefined],
    ['[fe80::1]:22', undefined],
    ['fe80::1', undefined],
  ])('says on the jump field when a jump host has no valid port (%s)', (hop, message) => {
    const built = buildBoard({ ...EMPTY_BOARD, label: 'orin', host: 'orin.local', jump: `ok@gate\n${hop}` }, 'b-1');
    if (message === undefined) expect(built.ok).toBe(true);
    else expect(built).toMatchObject({ ok: false, errors: { jump: message } });
  });

  // ssh_config's HostName takes no port: "orin:22" was saved as a host and failed as "host name not found".
  it.each([
    ['orin.local:2222', 'the port goes in the Port field: host orin.local, port 2222'],
    ['10.0.0.5:', 'the port goes in the Port field: host 10.0.0.5'],
    ['[fe80::1]:22', 'the port goes in the Port field: host fe80::1, port 22'],
    // ssh(1)'s user@host[:port]: "host may contain letters, digits…" said nothing of the user.
    ['root@127.0.0.1:1', 'the user and the port go in their fields: user root, host 127.0.0.1, port 1'],
    ['pi@raspberrypi.local', 'the user goes in the User field: user pi, host raspberrypi.local'],
    ['nvidia@[fe80::1]:2222', 'the user and the port go in their fields: user nvidia, host fe80::1, port 2222'],
    ['fe80::1', undefined],
    ['[fe80::1]', undefined],
    ['fe80::1%eth0', undefined],
  ])('says on the host field when a port or a user was typed into it (%s)', (host, message) => {
    const built = buildBoard({ ...EMPTY_BOARD, label: 'orin', host }, 'b-1');
    if (message === undefined) expect(built.ok).toBe(true);
    else expect(built).toEqual({ ok: false, errors: { host: message } });
  });

  it('round-trips a saved board through the draft', () => {
    const saved: BoardInfo = {
      id: 'o-1',
      label: 'Orin',
      spec: {
        kind: 'ssh',
        host: '10.0.0.5',
        port: 22,
        user: 'nvidia',
        jump: ['a@b', 'c'],
        alias: 'orin',
        keepaliveSec: 30,
      },
    };
    expect(buildBoard(draftFromBoard(saved), 'o-1')).toEqual({
      ok: true,
      input: { id: 'o-1', label: 'Orin', spec: saved.spec },
    });
  });
});

describe('the boards slice', () => {
  it('saves a new board, reloads the list and selects it; a server refusal lands in the dialog', async () => {
    const { api, store } = boardsApi();
    await store.getState().loadBoards();
    store.getState().openEditor();
    store.getState().setBoardField('host', '10.0.0.5');
    store.getState().setBoardField('label', 'Orin');
    expect(await store.getState().saveBoard()).toBe(true);
    expect(store.getState().editor).toBeNull();
    expect(store.getState().selectedBoardId).toBe('board-1');
    expect(store.getState().boards.map((t) => t.label)).toEqual(['This computer', 'Orin']);

    store.getState().openEditor('board-1');
    expect(store.getState().editor).toMatchObject({
      mode: 'edit',
      id: 'board-1',
      draft: { host: '10.0.0.5', label: 'Orin' },
    });
    api.saveBoard.mockRejectedValueOnce(new Error('identityFile: "x" must be an absolute path'));
    expect(await store.getState().saveBoard()).toBe(false);
    expect(store.getState().editor?.errors.general).toMatch(/absolute path/);
    store.getState().setKvField('ggufTarget', 'board-1');
    await store.getState().removeBoard('board-1');
    expect(store.getState().editor).toBeNull();
    expect(store.getState().boards).toEqual([LOCAL]);
    // The KV calculator read its GGUF on the removed board: it reads on the first one, as its select shows.
    expect(store.getState().kvForm.ggufTarget).toBe('local');
  });

  it('imports a Host from the ssh config and marks it saved', async () => {
    const { api, store } = boardsApi();
    await store.getState().openImporter();
    await store.getState().importHost('orin');
    expect(api.saveBoard).toHaveBeenCalledWith({
      label: 'orin',
      spec: { kind: 'ssh', host: '10.0.0.5', user: 'nvidia', alias: 'orin' },
    });
    expect(store.getState().importer?.hosts[0]?.savedBoardId).toBe('board-1');
    await store.getState().importHost('orin'); // already saved: nothing
    expect(api.saveBoard).toHaveBeenCalledTimes(1);
  });

  it('keeps the last probe per board: probing, done or the error text', async () => {
    const { api, store } = boardsApi();
    let finish!: (v: MethodOutput<'probeBoard'>) => void;
    api.probeBoard.mockReturnValueOnce(new Promise((r) => (finish = r)));
    const probing = store.getState().probeBoard('local');
    expect(store.getState().probes.local?.status).toBe('probing');
    // Only the fields the slice reads: the probe itself is the device card's business.
    finish({
      boardId: 'local',
      label: 'This computer',
      probedAt: 1,
      probe: {},
      findings: [],
    } as unknown as MethodOutput<'probeBoard'>);
    await probing;
    expect(store.getState().probes.local).toMatchObject({ status: 'done', result: { boardId: 'local' } });
    api.probeBoard.mockRejectedValueOnce(new Error('The host key of Orin has CHANGED'));
    await store.getState().probeBoard('board-9');
    expect(store.getState().probes['board-9']).toMatchObject({
      status: 'error',
      error: 'The host key of Orin has CHANGED',
    });
  });
});

describe('a probed board edited', () => {
  it.each([
    ['renamed', 'label', 'Orin (lab)', true],
    ['given another host', 'host', '10.0.0.6', false],
    ['given another port', 'port', '2222', false],
    ['given another user', 'user', 'root', false],
  ] as const)('keeps its device card only when it is %s', async (_what, field, value, kept) => {
    const { api, store } = boardsApi();
    await api.saveBoard({ label: 'Orin', spec: { kind: 'ssh', host: '10.0.0.5', user: 'nvidia' } });
    await store.getState().loadBoards();
    api.probeBoard.mockResolvedValueOnce({ boardId: 'board-1' } as unknown as MethodOutput<'probeBoard'>);
    await store.getState().probeBoard('board-1');
    expect(store.getState().probes['board-1']?.status).toBe('done');
    store.getState().openEditor('board-1');
    store.getState().setBoardField(field, value);
    expect(await store.getState().saveBoard()).toBe(true);
    expect(store.getState().probes['board-1']?.status).toBe(kept ? 'done' : undefined);
  });
});

describe('the prompts slice', () => {
  const hostKey = {
    requestId: 'req-1',
    boardLabel: 'Orin',
    host: '10.0.0.5',
    port: 22,
    keyType: 'ssh-ed25519',
    fingerprint: 'SHA256:abc',
    knownHostsPath: '/k',
    expiresAt: 1,
  };
  const password = {
    requestId: 'req-2',
    kind: 'password' as const,
    boardLabel: 'Orin',
    account: 'nvidia@10.0.0.5',
    canRemember: false,
    rememberNote: 'no keychain',
    expiresAt: 1,
  };

  it('queues prompt events oldest first and drops the one answered', async () => {
    const { api, emit, store } = boardsApi();
    emit('hostKeyPrompt', hostKey);
    emit('credentialPrompt', password);
    emit('hostKeyPrompt', hostKey); // a repeat (reconnect + listPrompts) is not a second dialog
    emit('hostKeyPrompt', { requestId: 'bad id!' } as unknown as EventPayload<'hostKeyPrompt'>); // not a prompt: ignored
    expect(store.getState().prompts.map((p) => p.kind)).toEqual(['hostKey', 'credential']);
    await store.getState().answerHostKey('req-1', true);
    expect(api.answerHostKey).toHaveBeenCalledWith({ requestId: 'req-1', accept: true });
    expect(store.getState().prompts.map((p) => p.prompt.requestId)).toEqual(['req-2']);
    await store.getState().answerCredential('req-2', 'pw', true);
    expect(api.answerCredential).toHaveBeenCalledWith({ requestId: 'req-2', value: 'pw', remember: true });
    expect(store.getState().prompts).toEqual([]);
    // The typed secret is not kept in the store.
    expect(JSON.stringify(store.getState(), (_k, v) => (typeof v === 'function' ? undefined : v))).not.toContain(
      '"pw"',
    );
  });

  it('closes a dialog answered in another window or timed out', () => {
    const { emit, store } = boardsApi();
    emit('hostKeyPrompt', hostKey);
    emit('promptClosed', { requestId: 'req-1', reason: 'timeout' });
    expect(store.getState().prompts).toEqual([]);
  });

  it('says so when an answer arrives after the prompt closed', async () => {
    const { api, emit, store } = boardsApi();
    emit('hostKeyPrompt', hostKey);
    api.answerHostKey.mockResolvedValueOnce({ ok: false });
    await store.getState().answerHostKey('req-1', true);
    expect(store.getState().promptError).toMatch(/already closed/);
  });
});

describe('fixes in the device card', () => {
  it('offers the command part for copying and keeps sentences as text', () => {
    expect(
      splitFix(
        'sudo sysctl -w kernel.perf_event_paranoid=1   (permanent: echo x | sudo tee /etc/sysctl.d/60-perf.conf)',
      ),
    ).toEqual({
      command: 'sudo sysctl -w kernel.perf_event_paranoid=1',
      note: 'permanent: echo x | sudo tee /etc/sysctl.d/60-perf.conf',
    });
    expect(splitFix('echo madvise | sudo tee /sys/kernel/mm/transparent_hugepage/enabled')).toEqual({
      command: 'echo madvise | sudo tee /sys/kernel/mm/transparent_hugepage/enabled',
      note: null,
    });
    expect(splitFix('Let the board cool down, add a heatsink or fan, and check airflow.')).toEqual({
      command: null,
      note: 'Let the board cool down, add a heatsink or fan, and check airflow.',
    });
  });
});
