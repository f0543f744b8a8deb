// `npm run bench`: every benchmark, one table. Long runs live here, never in `npm test`.
// KVSCOPE_BENCH_SECONDS shortens the sampler windows for a quick look (default 30 s each).
import { machineNote, type BenchRow } from './bench-util';

type Bench = { name: string; load: () => Promise<() => Promise<BenchRow[]>> };

const benches: Bench[] = [
  { name: 'sampler', load: async () => (await import('./sampler.bench')).benchSampler },
  { name: 'collectors', load: async () => (await import('./collectors.bench')).benchCollectors },
  { name: 'collector boards', load: async () => (await import('./collectors.bench')).benchCollectorBoards },
  { name: 'demo accuracy', load: async () => (await import('./demo-accuracy.bench')).benchDemoAccuracy },
  { name: 'parsers', load: async () => (await import('./parsers.bench')).benchParsers },
  { name: 'gguf', load: async () => (await import('./gguf.bench')).benchGguf },
  { name: 'gguf over ssh', load: async () => (await import('./gguf-ssh.bench')).benchGgufSsh },
  { name: 'ssh', load: async () => (await import('./ssh.bench')).benchSsh },
  { name: 'ssh run', load: async () => (await import('./ssh-run.bench')).benchSshRun },
  { name: 'engines', load: async () => (await import('./engines.bench')).benchEngines },
  { name: 'session', load: async () => (await import('./session.bench')).benchSession },
  { name: 'import', load: async () => (await import('./import.bench')).benchImport },
  { name: 'ui', load: async () => (await import('./ui.bench')).benchUi },
  { name: 'dashboard hours', load: async () => (await import('./dashboard-hours.bench')).benchDashboardHours },
];

const only = process.argv.slice(2);
const rows: Array<BenchRow & { group: string }> = [];
for (const bench of benches) {
  if (only.length && !only.some((o) => bench.name.includes(o))) continue;
  process.stderr.write(`bench: ${bench.name}…\n`);
  try {
    const fn = await bench.load();
    for (const row of await fn()) rows.push({ group: bench.name, ...row });
  } catch (error) {
    rows.push({
      group: bench.name,
      name: '(failed)',
      value: '–',
      note: String((error as Error).message ?? error).split('\n')[0],
    });
  }
}
const w: [number, number, number] = [
  Math.max(5, ...rows.map((r) => r.group.length)),
  Math.max(9, ...rows.map((r) => r.name.length)),
  Math.max(5, ...rows.map((r) => r.value.length)),
];
const line = (a: string, b: string, c: string, d: string) =>
  `| ${a.padEnd(w[0])} | ${b.padEnd(w[1])} | ${c.padStart(w[2])} | ${d}`;
console.log(`KVScope benchmarks — ${machineNote()}, node ${process.version}, ${new Date().toISOString()}`);
console.log(line('group', 'benchmark', 'value', 'note'));
console.log(`|${'-'.repeat(w[0] + 2)}|${'-'.repeat(w[1] + 2)}|${'-'.repeat(w[2] + 2)}|------`);
for (const r of rows) console.log(line(r.group, r.name, r.value, r.note ?? ''));
