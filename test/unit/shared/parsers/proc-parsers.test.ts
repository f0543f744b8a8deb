import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createMeminfoParser,
  createSmapsParser,
  createStatmParser,
  createStatusParser,
  parseStatmLine,
} from '../../../../shared/parsers/proc-parsers';
import { diagnostics, ofKind, parse, parseFixture } from '../../../helpers/parser-test-kit';
import { expectSurvivesAnyText, feed } from '../../../helpers/parser-noise';
import { PROTOTYPE_KEYS } from '../../../helpers/prototype-keys';

describe('smaps_rollup / smaps', () => {
  it('three real smaps_rollup reads: Android arm64, x86_64 ≥ 5.4 (Pss_* split, read twice), CentOS 8', () => {
    const all = parseFixture('smaps', 'proc/smaps-rollup-android-x86-centos8/05_smaps_rollup_samples.txt');
    const rs = ofKind(all, 'smaps');
    expect(rs.map((r) => [r.line, r.rollup, r.vmas, r.rssKb, r.pssKb, r.anonKb, r.swapKb])).toEqual([
      [7, true, 1, 55656, 7071, 23876, 35232],
      [29, true, 1, 70652, 35558, 11544, 0],
      [51, true, 1, 78512, 43402, 14688, 0],
      [76, true, 1, 1912, 194, 112, null],
    ]);
    expect(rs[0]?.kb).toMatchObject({ SwapPss: 1194, Writeback: 0, Private_Dirty: 5200, Shared_Clean: 31232 });
    expect('Pss_Anon' in (rs[0]?.kb ?? {})).toBe(false);
    expect(rs[1]?.kb).toMatchObject({ Pss_Anon: 8107, Pss_File: 4155, Pss_Shmem: 23295, FilePmdMapped: 0 });
    expect(rs[2]?.kb.Private_Dirty).toBe(15132);
    expect(Object.keys(rs[3]?.kb ?? {})).toEqual([
      'Rss',
      'Pss',
      'Shared_Clean',
      'Shared_Dirty',
      'Private_Clean',
      'Private_Dirty',
      'Referenced',
      'Anonymous',
      'LazyFree',
    ]);
    expect(diagnostics(all).map((d) => [d.line, d.text])).toEqual([
      [6, 'a52q:/proc/10660 # cat smaps_rollup'],
      [50, '---'],
      [75, '$ cat /proc/self/smaps_rollup'],
    ]);
  });

  // Android kernels print `Name:           [anon:…]` under a named anonymous mapping; it is no size.
  // A paste inside a Markdown list keeps one leading space on every line.
  it.each([
    ['one [anon:libc_malloc] mapping (a ZTE device)', 'zte-vt100-libc-malloc.txt', [1, 84, 84, 84, 0]],
    ['two mappings of systemui, every line indented', 'systemui-indented.txt', [2, 480 + 8, 480 + 2, 480, 0]],
  ])('a real Android smaps with Name: lines: %s, summed as one read', (_what, file, expected) => {
    const all = parseFixture('smaps', `proc/smaps-android-name-lines/${file}`);
    expect(diagnostics(all)).toEqual([]);
    expect(ofKind(all, 'smaps').map((r) => [r.vmas, r.rssKb, r.pssKb, r.anonKb, r.swapKb])).toEqual([expected]);
  });

  it('a full smaps (kernel < 4.14, JetPack 4) is summed over its VMAs; a read starting again at low addresses is the next sample', () => {
    // Layout of proc(5) /proc/pid/smaps: a maps line per VMA, then its fields.
    const vmas = (stackRss: number) =>
      [
        '00400000-00452000 r-xp 00000000 08:02 173521                             /usr/bin/llama-server',
        'Size:                328 kB',
        'KernelPageSize:        4 kB',
        'MMUPageSize:           4 kB',
        'Rss:                 296 kB',
        'Pss:                 148 kB',
        'Anonymous:             0 kB',
        'Swap:                  0 kB',
        'VmFlags: rd ex mr mw me dw',
        '00651000-00652000 r--p 00051000 08:02 173521                             /usr/bin/llama-server',
        'Size:                  4 kB',
        'Rss:                   4 kB',
        'Pss:                   4 kB',
        'Anonymous:             4 kB',
        'Swap:                  0 kB',
        'THPeligible:    0',
        'ProtectionKey:         0',
        '7ffd0c3b1000-7ffd0c3d2000 rw-p 00000000 00:00 0                          [stack]',
        'Size:                132 kB',
        `Rss:                 ${stackRss} kB`,
        `Pss:                 ${stackRss} kB`,
        `Anonymous:           ${stackRss} kB`,
        'Swap:                  8 kB',
      ].join('\n');
    const all = parse('smaps', vmas(20) + '\n' + vmas(40) + '\n');
    expect(diagnostics(all)).toEqual([]);
    const rs = ofKind(all, 'smaps');
    expect(rs.map((r) => [r.line, r.rollup, r.vmas, r.rssKb, r.pssKb, r.anonKb, r.swapKb, r.kb.Size])).toEqual([
      [1, false, 3, 320, 172, 24, 8, 464],
      [24, false, 3, 340, 192, 44, 8, 464],
    ]);
    expect('KernelPageSize' in (rs[0]?.kb ?? {})).toBe(false);
  });

  it('never throws on any text', () => {
    expectSurvivesAnyText(createSmapsParser, 120, { lines: 20, runs: 300 });
  });
});

describe('meminfo', () => {
  it('Jetson TX2 (NvMap keys), Pi Zero 2 W on 6.12, OpenWrt without MemAvailable, a `tr -s` squeezed Pi dump', () => {
    const all = parseFixture('meminfo', 'proc/meminfo-tx2-pizero2w-openwrt-pi/07_proc_meminfo_small_boards.txt');
    const [tx2, zero, openwrt, pi] = ofKind(all, 'meminfo');
    expect([tx2?.line, tx2?.memTotalKb, tx2?.memAvailableKb, tx2?.memAvailableEstimated]).toEqual([
      8,
      8038788,
      5642288,
      false,
    ]);
    expect(tx2?.kb).toMatchObject({
      NvMapMemFree: 94784,
      NvMapMemUsed: 805068,
      CmaTotal: 753664,
      CmaFree: 719864,
      Hugepagesize: 2048,
      'Active(anon)': 1008140,
    });
    expect(tx2?.counts).toEqual({ HugePages_Total: 0, HugePages_Free: 0, HugePages_Rsvd: 0, HugePages_Surp: 0 });
    expect(Object.keys(tx2?.kb ?? {})).toHaveLength(42); // lines 8–53 of the capture, less the four unitless HugePages_* counts
    expect([zero?.line, zero?.memTotalKb, zero?.memAvailableKb]).toEqual([58, 426068, 233696]);
    expect(zero?.kb).toMatchObject({ Zswap: 0, Zswapped: 0, SecPageTables: 0, Percpu: 720, CmaFree: 82800 });
    // Pre-3.14 kernel: MemFree 80288 + Buffers 7652 + Cached 21700.
    expect([openwrt?.line, openwrt?.memTotalKb, openwrt?.memAvailableKb, openwrt?.memAvailableEstimated]).toEqual([
      104,
      125128,
      109640,
      true,
    ]);
    expect('MemAvailable' in (openwrt?.kb ?? {})).toBe(false);
    expect(openwrt?.kb.VmallocChunk).toBe(829276);
    expect([pi?.line, pi?.memTotalKb, pi?.memAvailableKb, pi?.kb.VmallocChunk]).toEqual([141, 949328, 884628, 886668]);
    expect(diagnostics(all).map((d) => [d.line, d.text])).toEqual([
      [7, 'jpark@ubuntu:~$ cat /proc/meminfo '],
      [103, 'cat /proc/meminfo'],
    ]);
  });

  it('back-to-back reads without separators are separate samples', () => {
    const rs = ofKind(
      parse('meminfo', 'MemTotal: 100 kB\nMemFree: 10 kB\nMemTotal: 100 kB\nMemFree: 20 kB\nMemFree: 30 kB\n'),
      'meminfo',
    );
    expect(rs.map((r) => [r.line, r.kb.MemFree])).toEqual([
      [1, 10],
      [3, 20],
      [5, 30],
    ]);
  });

  it('never throws on any text', () => {
    expectSurvivesAnyText(createMeminfoParser, 80, { lines: 20, runs: 300 });
  });
});

describe('/proc/<pid>/status', () => {
  it('systemd and kthreadd on 5.10 (annotated pastes), busybox cat on 6.x: Rss* split, kernel threads have no Vm* lines', () => {
    const all = parseFixture('status', 'proc/status-kernel5.10-and-6.x/06_proc_pid_status_samples.txt');
    const [systemd, kthreadd, cat] = ofKind(all, 'status');
    expect(systemd).toMatchObject({
      line: 10,
      name: 'systemd',
      pid: 1,
      state: 'S (sleeping)',
      kernelThread: false,
      vmSizeKb: 169964,
      vmHwmKb: 29528,
      vmRssKb: 6104,
      rssAnonKb: 2756,
      rssFileKb: 3348,
      rssShmemKb: 0,
      vmDataKb: 19776,
      vmSwapKb: 2400,
    });
    // Lines carrying the poster's "<-- here" are not status lines: kept as diagnostics, not read.
    expect([systemd?.vmPeakKb, systemd?.threads]).toEqual([null, null]);
    expect(systemd?.fields.SigIgn).toBe('0000000000001000');
    expect(kthreadd).toMatchObject({
      line: 51,
      name: 'kthreadd',
      pid: 2,
      kernelThread: true,
      vmRssKb: null,
      rssAnonKb: null,
      vmSwapKb: null,
    });
    expect(kthreadd?.kb).toEqual({});
    expect(cat).toMatchObject({
      line: 76,
      name: 'cat',
      pid: 1,
      state: 'R (running)',
      threads: 1,
      kernelThread: false,
      vmPeakKb: 1772,
      vmRssKb: 816,
      rssAnonKb: 0,
      rssFileKb: 816,
      vmSwapKb: 0,
    });
    expect(cat?.fields.untag_mask).toBe('0xffffffffffffff');
    expect(cat?.fields.Groups).toBe('0 1 2 3 4 6 10 11 20 26 27');
    expect(cat?.fields.nonvoluntary_ctxt_switches).toBe('0');
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [9, 'not a status line'],
      [26, 'VmPeak: expected "N kB"'],
      [44, 'Threads: expected a whole number'],
      [50, 'not a status line'],
      [67, 'Threads: expected a whole number'],
    ]);
  });

  it('a `head` that stops before Threads: cannot tell a kernel thread', () => {
    const [r] = ofKind(parse('status', 'Name:\tkworker/0:1\nState:\tI (idle)\nPid:\t17\n'), 'status');
    expect([r?.kernelThread, r?.vmRssKb]).toEqual([null, null]);
    const [k] = ofKind(parse('status', 'Name:\tkworker/0:1\nKthread:\t1\nThreads:\t1\n'), 'status');
    expect(k?.kernelThread).toBe(true);
  });

  it('bytes that are not a status file are diagnostics, not a record of unknown fields (found parsing /dev/urandom)', () => {
    const noise = 'z:q\ufffdu\u0006\ufffd\nM:\u0002x\nName:\tllama\u0007cli\nVmRSS:\t12 kB\n';
    expect(parse('status', noise).map((r) => [r.kind, r.line])).toEqual([
      ['diagnostic', 1],
      ['diagnostic', 2],
      ['diagnostic', 3],
      ['status', 4],
    ]);
    // A name with a tab-separated value and escapes, as the kernel prints it, is read.
    const [r] = ofKind(parse('status', 'Name:\tllama\\nserver\nUid:\t0\t0\t0\t0\n'), 'status');
    expect([r?.name, r?.fields.Uid]).toEqual(['llama\\nserver', '0\t0\t0\t0']);
  });

  it('never throws on any text', () => {
    expectSurvivesAnyText(createStatusParser, 80, { lines: 20, runs: 300 });
  });
});

describe('/proc/<pid>/statm', () => {
  it('pages become bytes only with the page size the target reported', () => {
    // proc(5): size resident shared text lib data dt
    const text = '  4931 1217 851 28 0 327 0\n';
    expect(ofKind(parse('statm', text), 'statm')).toEqual([
      {
        kind: 'statm',
        line: 1,
        pageSizeBytes: null,
        sizePages: 4931,
        residentPages: 1217,
        sharedPages: 851,
        textPages: 28,
        dataPages: 327,
        sizeBytes: null,
        residentBytes: null,
        sharedBytes: null,
        textBytes: null,
        dataBytes: null,
      },
    ]);
    const [pi5] = ofKind(parse('statm', text, { pageSizeBytes: 16384 }), 'statm');
    expect([pi5?.residentBytes, pi5?.sizeBytes, pi5?.dataBytes]).toEqual([1217 * 16384, 4931 * 16384, 327 * 16384]);
    const [x86] = ofKind(parse('statm', text, { pageSizeBytes: 4096 }), 'statm');
    expect(x86?.residentBytes).toBe(1217 * 4096);
    expect(parseStatmLine('1 2 3', 4, 4096)).toEqual({
      kind: 'diagnostic',
      line: 4,
      reason: 'not a statm line',
      text: '1 2 3',
    });
  });

  it('more resident than mapped pages, or more shared than resident, is a damaged line, not a reading', () => {
    // The line above with one digit changed: resident 9217 > size 4931; shared 1851 > resident 1217.
    for (const damaged of ['  4931 9217 851 28 0 327 0', '  4931 1217 1851 28 0 327 0'])
      expect(parseStatmLine(damaged, 1, 4096)).toEqual({
        kind: 'diagnostic',
        line: 1,
        reason: 'statm: more resident than mapped pages',
        text: damaged,
      });
    // Everything resident and shared (a small static binary): a reading.
    expect(parseStatmLine('100 100 100 1 0 50 0', 1, 4096).kind).toBe('statm');
  });

  it('never throws on any text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', maxLength: 60 }), { maxLength: 10 }),
        fc.option(fc.integer()),
        (lines, ps) => {
          for (const r of feed(createStatmParser({ pageSizeBytes: ps ?? undefined }), lines))
            expect(['statm', 'diagnostic']).toContain(r.kind);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('keys named like Object.prototype members (shared/util/dictionary.ts)', () => {
  it.each(PROTOTYPE_KEYS)('%s is a key like any other in smaps, meminfo and status', (key) => {
    const smaps = ofKind(
      parse('smaps', `7f0000-7f1000 r-xp 00000000 00:00 0  /x\nSize:  4 kB\n${key}:  5 kB\n`),
      'smaps',
    );
    expect(smaps.map((r) => Object.entries(r.kb))).toEqual([
      [
        ['Size', 4],
        [key, 5],
      ],
    ]);
    // A key that only seemed present ("constructor" in {}) split one read in two.
    const meminfo = ofKind(parse('meminfo', `MemTotal: 100 kB\n${key}: 5 kB\nHugePages_Total: 3\n`), 'meminfo');
    expect(meminfo.map((r) => [Object.entries(r.kb), Object.entries(r.counts)])).toEqual([
      [
        [
          ['MemTotal', 100],
          [key, 5],
        ],
        [['HugePages_Total', 3]],
      ],
    ]);
    const status = ofKind(parse('status', `Name:\tllama-server\n${key}:\ty\nVmRSS:\t 5 kB\n`), 'status');
    expect(status.map((r) => [Object.entries(r.fields), r.vmRssKb])).toEqual([
      [
        [
          ['Name', 'llama-server'],
          [key, 'y'],
        ],
        5,
      ],
    ]);
  });
});
