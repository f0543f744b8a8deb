// Reading the Prometheus text format back in tests. `promtool check metrics` (Debian's
// `prometheus` package) is the real parser and linter: it says whether a file is valid. The small
// reader below only pulls the values out so a test can compare them; it follows the format's
// grammar (label values with \\, \" and \n escapes) and fails loudly on anything else.
import { spawn } from 'node:child_process';

export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface PromText {
  samples: PromSample[];
  help: Map<string, string>;
  type: Map<string, string>;
}

export function parsePrometheusText(text: string): PromText {
  const out: PromText = { samples: [], help: new Map(), type: new Map() };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/s.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta as unknown as [string, string, string, string];
      (kind === 'HELP' ? out.help : out.type).set(name, rest);
      continue;
    }
    out.samples.push(parseSampleLine(line));
  }
  return out;
}

function parseSampleLine(line: string): PromSample {
  let i = 0;
  const name = /^[a-z_:][\w:]*/i.exec(line)?.[0];
  if (!name) throw new Error(`not a sample line: ${line}`);
  i = name.length;
  const labels: Record<string, string> = {};
  if (line[i] === '{') {
    i++;
    while (line[i] !== '}') {
      const eq = line.indexOf('=', i);
      if (eq < 0) throw new Error(`label without a value: ${line}`);
      const key = line.slice(i, eq);
      if (line[eq + 1] !== '"') throw new Error(`label ${key} without a quoted value: ${line}`);
      i = eq + 2;
      let value = '';
      while (line[i] !== '"') {
        if (i >= line.length) throw new Error(`unterminated label value: ${line}`);
        if (line[i] === '\\') {
          const next = line[i + 1];
          if (next === 'n') value += '\n';
          else if (next === '\\' || next === '"') value += next;
          else throw new Error(`bad escape \\${next ?? ''} in: ${line}`);
          i += 2;
        } else value += line[i++];
      }
      labels[key] = value;
      i++;
      if (line[i] === ',') i++;
    }
    i++;
  }
  if (line[i] !== ' ') throw new Error(`no value separator: ${line}`);
  const valueText = line.slice(i + 1);
  if (!/^\S+$/.test(valueText)) throw new Error(`unexpected value field "${valueText}" (timestamps are not allowed)`);
  return { name, labels, value: Number(valueText) };
}

/** `promtool check metrics` on `text`: exit code 0 = valid and lint-clean, 1 = parse error, 3 = lint problems. */
export function promtoolCheck(text: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('promtool', ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(text);
  });
}
