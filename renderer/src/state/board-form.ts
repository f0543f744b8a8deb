// The "add / edit a board" form as the user types it (strings) and its translation into the
// saveBoard input. Checked with the contract's own BoardSpecSchema, so the form refuses
// what the main side would refuse and each message lands next to its field. Paths may start
// with ~/: the main side expands them (the renderer has no home directory).
import type { MethodInput } from '../../../shared/api/contract';
import { allowedNumberText, isNumberIssue, numberRangeOf } from '../../../shared/api/number-range';
import { BoardSpecSchema, BoardLabelSchema, type BoardInfo } from '../../../shared/api/schemas';
import { isPortText } from '../../../shared/util/port';

type MethodInputSaveBoard = MethodInput<'saveBoard'>;

export interface BoardDraft {
  label: string;
  host: string;
  port: string;
  user: string;
  identityFile: string;
  /** Jump hosts, outermost first: one per line or comma-separated, user@host[:port]. */
  jump: string;
  knownHostsFile: string;
  /** Kept from an imported ~/.ssh/config entry (not editable here). */
  alias: string;
  keepaliveSec: string;
}

export type BoardField = keyof BoardDraft | 'general';
export type BoardErrors = Partial<Record<BoardField, string>>;

export const EMPTY_BOARD: BoardDraft = {
  label: '',
  host: '',
  port: '22',
  user: '',
  identityFile: '',
  jump: '',
  knownHostsFile: '',
  alias: '',
  keepaliveSec: '',
};

export function draftFromBoard(board: BoardInfo): BoardDraft {
  if (board.spec.kind !== 'ssh') return { ...EMPTY_BOARD, label: board.label };
  const s = board.spec;
  return {
    label: board.label,
    host: s.host,
    port: String(s.port ?? 22),
    user: s.user ?? '',
    identityFile: s.identityFile ?? '',
    jump: (s.jump ?? []).join('\n'),
    knownHostsFile: s.knownHostsFile ?? '',
    alias: s.alias ?? '',
    keepaliveSec: s.keepaliveSec !== undefined ? String(s.keepaliveSec) : '',
  };
}

const FIELD_OF_PATH: Record<string, BoardField> = {
  host: 'host',
  port: 'port',
  user: 'user',
  identityFile: 'identityFile',
  knownHostsFile: 'knownHostsFile',
  jump: 'jump',
  alias: 'alias',
  keepaliveSec: 'keepaliveSec',
};

/** What the number fields allow, in the form's words (the contract's own limits). */
const NUMBER_FIELD_TEXT: Record<'port' | 'keepaliveSec', string> = {
  port: allowedNumberText(numberRangeOf(BoardSpecSchema.shape.port), { grouping: false }),
  keepaliveSec: allowedNumberText(numberRangeOf(BoardSpecSchema.shape.keepaliveSec), { unit: 'seconds' }),
};

const PATH_LIKE = /^(?:\/|~\/|~$)/;
/**
 * `host:port` or `[v6]:port` typed into the Host field. One colon is never an IPv6 literal (those
 * have two or more), so such a host could only fail later as "host name not found".
 */
const HOST_WITH_PORT = /^([^:[\]]+|\[[^\]]*\]):([^:]*)$/;
/** `user@host`: the user typed into the Host field (the host's own characters hold no `@`). */
const USER_AT = /^([^@\s]+)@(.+)$/;

export type BuiltBoard = { ok: true; input: MethodInputSaveBoard } | { ok: false; errors: BoardErrors };

/**
 * Whether a jump host's port, when it has one, is a port: `[user@]host:port` or `[v6]:port`
 * (a bare IPv6 address, colons and no brackets, has none). The main side parses the hop fully
 * (electron/node/transport/target-spec.ts); this puts its commonest refusal on the field.
 */
function jumpPortOk(hop: string): boolean {
  const rest = hop.slice(hop.lastIndexOf('@') + 1);
  const close = rest.startsWith('[') ? rest.indexOf(']') : -1;
  const afterHost = close >= 0 ? rest.slice(close + 1) : rest;
  const colon = afterHost.indexOf(':');
  if (colon < 0 || (close < 0 && afterHost.indexOf(':', colon + 1) >= 0)) return true;
  return isPortText(afterHost.slice(colon + 1));
}

export function buildBoard(draft: BoardDraft, id: string | null): BuiltBoard {
  const errors: BoardErrors = {};
  const label = draft.label.trim() || draft.host.trim();
  const labelCheck = BoardLabelSchema.safeParse(label);
  // A blank name defaults to the host: with both blank, the host is what is missing (said there).
  const hostMissing = draft.label.trim() === '' && draft.host.trim() === '';
  if (!labelCheck.success && !hostMissing) errors.label = labelCheck.error.issues[0]?.message ?? 'invalid';

  // `user@host[:port]` typed as ssh(1) takes it: each part goes in its own field, said with its value.
  const userAt = USER_AT.exec(draft.host.trim());
  const hostText = userAt ? (userAt[2] ?? '') : draft.host.trim();
  const hostWithPort = HOST_WITH_PORT.exec(hostText);
  if (userAt || hostWithPort) {
    const [, hostPart = hostText, portPart = ''] = hostWithPort ?? [];
    const parts = [
      ...(userAt ? [`user ${userAt[1] ?? ''}`] : []),
      `host ${hostPart.replace(/^\[(.*)\]$/, '$1')}`,
      ...(/^\d+$/.test(portPart) ? [`port ${portPart}`] : []),
    ];
    const where =
      userAt && hostWithPort
        ? 'the user and the port go in their fields'
        : userAt
          ? 'the user goes in the User field'
          : 'the port goes in the Port field';
    errors.host = `${where}: ${parts.join(', ')}`;
  }

  let port: number | undefined;
  const portText = draft.port.trim();
  if (portText !== '') {
    if (!/^\d+$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535)
      errors.port = NUMBER_FIELD_TEXT.port;
    else port = Number(portText);
  }
  let keepaliveSec: number | undefined;
  if (draft.keepaliveSec.trim() !== '') {
    if (!/^\d+$/.test(draft.keepaliveSec.trim())) errors.keepaliveSec = NUMBER_FIELD_TEXT.keepaliveSec;
    else keepaliveSec = Number(draft.keepaliveSec.trim());
  }
  for (const field of ['identityFile', 'knownHostsFile'] as const) {
    const value = draft[field].trim();
    if (value !== '' && !PATH_LIKE.test(value)) errors[field] = 'an absolute path (/…) or one under your home (~/…)';
  }
  const jump = draft.jump
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (jump.some((hop) => /\s/.test(hop))) errors.jump = 'one jump host per line: user@host[:port]';
  else {
    const badPort = jump.find((hop) => !jumpPortOk(hop));
    if (badPort) errors.jump = `port must be 1–65535 in ${badPort}`;
  }

  const spec: Record<string, unknown> = {
    kind: 'ssh',
    host: draft.host.trim(),
    ...(port !== undefined ? { port } : {}),
    ...(draft.user.trim() ? { user: draft.user.trim() } : {}),
    ...(draft.alias.trim() ? { alias: draft.alias.trim() } : {}),
    ...(draft.identityFile.trim() ? { identityFile: draft.identityFile.trim() } : {}),
    ...(jump.length ? { jump } : {}),
    ...(draft.knownHostsFile.trim() ? { knownHostsFile: draft.knownHostsFile.trim() } : {}),
    ...(keepaliveSec !== undefined ? { keepaliveSec } : {}),
  };
  const checked = BoardSpecSchema.safeParse(spec);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const field = FIELD_OF_PATH[String(issue.path[0])] ?? 'general';
      const numberText =
        isNumberIssue(issue) && Object.hasOwn(NUMBER_FIELD_TEXT, field)
          ? NUMBER_FIELD_TEXT[field as keyof typeof NUMBER_FIELD_TEXT]
          : undefined;
      const message =
        numberText ?? issue.message.replace(/^Too small: expected string to have >=1 characters?$/, 'required');
      errors[field] ??= field === 'general' ? `${issue.path.join('.') || 'board'}: ${message}` : message;
    }
  }
  if (Object.keys(errors).length > 0 || !checked.success) return { ok: false, errors };
  return { ok: true, input: { ...(id ? { id } : {}), label, spec: checked.data } };
}
