import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPmapParser } from '../../../../shared/parsers/pmap-parser';
import { diagnostics, ofKind, parse, parseFixture } from '../../../helpers/parser-test-kit';
import { noisePieces } from '../../../helpers/parser-noise';

/** The pmap records of `lines` (parsed whole and in chunks, as parse() does). */
const pmapRecords = (lines: string[]) => ofKind(parse('pmap', lines.join('\n')), 'pmap');

describe('pmap -x: real captures', () => {
  it('procps-ng 3.3 (Ubuntu 20.04): totals from the footer, anonymous mappings summed, program output interleaved', () => {
    const all = parseFixture('pmap', 'pmap/procps-ng-3.3-ubuntu20.04/01_pmap_x_procps3.3_ubuntu20.04_wsl.txt');
    expect(ofKind(all, 'pmap')).toEqual([
      {
        kind: 'pmap',
        line: 13,
        pid: 4299,
        command: './memory-user 1000 100',
        totalKb: 4098500,
        rssKb: 1008172,
        pssKb: null,
        dirtyKb: 1006700,
        swapKb: null,
        // [ anon ] 4 + 1006616 + 20 + 4 + 0 + 4, [ stack ] 16
        anonKb: 1006664,
        anonFrom: 'mappings',
        largestAnonKb: 1006616,
        mappings: 22,
        complete: true,
      },
    ]);
    expect(diagnostics(all).map((d) => d.line)).toEqual([8, 9, 10, 11, 12]);
    expect(diagnostics(all)[1]?.text).toBe('[1] 4299');
  });

  it('busybox (x86 container, ARM 32-bit) and toybox (Android): PSS instead of RSS, tab header, 8-digit addresses, no footer', () => {
    const all = parseFixture('pmap', 'pmap/busybox-toybox/04_pmap_x_busybox_toybox.txt');
    const [alpine, arm32, android] = ofKind(all, 'pmap');
    expect(alpine).toEqual({
      kind: 'pmap',
      line: 7,
      pid: 1,
      command: 'mem -n 1024',
      totalKb: 1048760,
      rssKb: null,
      pssKb: 1048616,
      dirtyKb: 1048592,
      swapKb: 0,
      anonKb: 1048584, // [heap] 1048576 + [stack] 8
      anonFrom: 'mappings',
      largestAnonKb: 1048576,
      mappings: 7,
      complete: true,
    });
    // Paste ends before the footer: summed from the 8 rows.
    expect(arm32).toEqual({
      kind: 'pmap',
      line: 24,
      pid: 1,
      command: 'init',
      totalKb: 1680,
      rssKb: null,
      pssKb: 310,
      dirtyKb: 52,
      swapKb: 0,
      anonKb: 40, // [heap] 32 + [stack] 8
      anonFrom: 'mappings',
      largestAnonKb: 32,
      mappings: 8,
      complete: false,
    });
    expect(android).toMatchObject({
      line: 40,
      pid: null,
      totalKb: 531680,
      pssKb: 13993,
      dirtyKb: 13940,
      swapKb: 32,
      anonKb: 11900,
      largestAnonKb: 11884,
      mappings: 11,
      complete: false,
    });
    expect(diagnostics(all).map((d) => [d.line, d.text])).toEqual([
      [23, '~ # pmap -x 1'],
      [50, '......'],
      [51, '......'],
      [52, '......'],
    ]);
  });

  it('procps 3.2.7 plain `pmap` (RHEL 5 x86_64): sizes with K, full paths, shared `r--s-` rows, the ` total NK` footer', () => {
    const all = parseFixture('pmap', 'pmap/procps-3.2.7-rhel5-x86_64/pmap_plain_bash.txt', { listMappings: true });
    expect(diagnostics(all).map((d) => [d.line, d.text])).toEqual([[1, '$ pmap 11443']]);
    const [r] = ofKind(all, 'pmap');
    expect(r).toMatchObject({
      line: 2,
      pid: 11443,
      command: 'bash',
      totalKb: 72380,
      rssKb: null,
      anonKb: null,
      // The vsyscall page at ffffffffff600000, `[ anon ]` to 3.2.7: nothing resident is printed, so sizes.
      largestAnonKb: 8192,
      mappings: 28,
      complete: true,
    });
    expect(r?.mappingsList?.[23]).toMatchObject({ sizeKb: 212, mode: 'r--s-', mapping: '/var/db/nscd/passwd' });
  });

  it("SUSE's patched pmap (openSUSE 15 procps-ng 3.3.12, SLES 11.4 procps 3.2.7): five columns told by the rows, both footers", () => {
    const all = parseFixture('pmap', 'pmap/suse-github-sysmon-issue1/pmap_suse.txt');
    expect(ofKind(all, 'pmap')).toEqual([
      {
        kind: 'pmap',
        line: 3,
        pid: null,
        command: null,
        totalKb: 222568,
        rssKb: 6704,
        pssKb: 2402,
        dirtyKb: 1832,
        swapKb: 640,
        anonKb: 4, // resident kB of the pasted `[ anon ]` rows: 0 + 4 + 0
        anonFrom: 'mappings',
        largestAnonKb: 4,
        mappings: 3,
        complete: true,
      },
      {
        kind: 'pmap',
        line: 13,
        pid: null,
        command: null,
        totalKb: 10560,
        rssKb: 636,
        pssKb: 79,
        dirtyKb: 48,
        swapKb: 88,
        anonKb: 0, // [vdso] and [vsyscall] are not anonymous memory
        anonFrom: 'mappings',
        largestAnonKb: null,
        mappings: 2,
        complete: true,
      },
    ]);
    // The poster's prose and `...`, and SLES's summary line: kept, not read.
    expect(diagnostics(all).map((d) => d.line)).toEqual([1, 2, 9, 11, 12, 17]);
  });

  it('lists the mappings on request, names with spaces kept whole', () => {
    const all = parseFixture('pmap', 'pmap/busybox-toybox/04_pmap_x_busybox_toybox.txt', { listMappings: true });
    const android = ofKind(all, 'pmap')[2];
    expect(android?.mappingsList![0]).toEqual({
      address: '0000000012c00000',
      sizeKb: 524288,
      rssKb: null,
      pssKb: 11884,
      dirtyKb: 11884,
      swapKb: 0,
      anonKb: null,
      mode: 'rw---',
      mapping: '[anon:dalvik-main space (region space)]',
      anonymous: true,
    });
    expect(android?.mappingsList![1]?.mapping).toBe('boot.art]');
    expect(android?.mappingsList![1]?.anonymous).toBe(false);
    expect(ofKind(all, 'pmap')[1]?.mappingsList!.map((m) => m.mapping)).toEqual([
      '/bin/busybox',
      '/bin/busybox',
      '[heap]',
      '[stack]',
      '[sigpage]',
      '[vvar]',
      '[vdso]',
      '[vectors]',
    ]);
  });
});

describe("pmap pasted through a blog's typography (test/fixtures/pmap/wptexturize-centos6-linoxide/SOURCE)", () => {
  it('CentOS 6 (procps 3.2.8, 32-bit): `r-x–`, `rw—`, `r—-` modes, the `——– ——-` rule and `total kB 8232 – – -` read', () => {
    const all = parseFixture('pmap', 'pmap/wptexturize-centos6-linoxide/pmap_plain_and_x_smart_dashes.txt', {
      listMappings: true,
    });
    const [plain, extended] = ofKind(all, 'pmap');
    expect(plain).toMatchObject({ line: 6, pid: 1013, command: '/usr/sbin/sshd', totalKb: 8232, complete: true });
    expect(plain?.mappings).toBe(30);
    expect(plain?.mappingsList?.slice(0, 3).map((m) => [m.sizeKb, m.mode, m.mapping])).toEqual([
      [1480, 'r-x--', '/usr/lib/libcrypto.so.1.0.0'],
      [80, 'rw---', '/usr/lib/libcrypto.so.1.0.0'],
      [12, 'rw---', '[ anon ]'],
    ]);
    expect(plain?.mappingsList?.[8]?.mode).toBe('r----');
    // The -x rows the post kept (20 of them); the footer's RSS and Dirty are `–` (not summed), so the rows' sums.
    expect(extended).toMatchObject({ line: 49, pid: 1013, totalKb: 8232, rssKb: 260, dirtyKb: 148, complete: true });
    expect(extended?.mappings).toBe(20);
    // Only the prompts, a line of prose and the command without output are not pmap's (`###` titles are comments).
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual(
      [3, 42, 44, 48].map((line) => [line, 'not a pmap line']),
    );
  });
});

describe('pmap: output written from the procps sources (3.2.x, 4.x) and the default format', () => {
  it('procps 3.2.x `-x` prints "-" where it cannot tell: no resident figures, no anon estimate', () => {
    const maps = pmapRecords([
      '5732:   -bash',
      'Address   Kbytes     RSS    Anon  Locked Mode   Mapping',
      '00393000     104       -       -       - r-x--  ld-2.5.so',
      '003b1000    1272       -       -       - r-x--  libc-2.5.so',
      'bfd10000      84       -       -       - rw---    [ stack ]',
      '-------- ------- ------- ------- -------',
      'total kB    1460       -       -       -',
    ]);
    expect(maps).toEqual([
      {
        kind: 'pmap',
        line: 1,
        pid: 5732,
        command: '-bash',
        totalKb: 1460,
        rssKb: null,
        pssKb: null,
        dirtyKb: null,
        swapKb: null,
        anonKb: null,
        anonFrom: null,
        largestAnonKb: null,
        mappings: 3,
        complete: true,
      },
    ]);
  });

  it('procps 3.2 `-x` with numbers in the Anon column uses the column', () => {
    const maps = pmapRecords([
      '77:   ./a.out',
      'Address           Kbytes     RSS    Anon  Locked Mode   Mapping',
      '0000000000400000       4       4       0       0 r-x--  a.out',
      '00007f0000000000    2048    2048    2048       0 rw---    [ anon ]',
      'total kB            2052    2052    2048       0',
    ]);
    expect(maps[0]).toMatchObject({
      totalKb: 2052,
      rssKb: 2052,
      anonKb: 2048,
      anonFrom: 'column',
      largestAnonKb: 2048,
    });
  });

  it('procps-ng 4.x: separator with a trailing space, several runs one after the other', () => {
    const run = (pid: number, rss: number) =>
      [
        `${pid}:   llama-server -m m.gguf`,
        'Address           Kbytes     RSS   Dirty Mode  Mapping',
        `00007f0000000000  131072 ${String(rss).padStart(7)} ${String(rss).padStart(7)} rw---   [ anon ]`,
        '0000555500000000    2000    1800       0 r-x-- llama-server',
        '---------------- ------- ------- ------- ',
        `total kB          133072 ${String(rss + 1800).padStart(7)} ${String(rss).padStart(7)}`,
      ].join('\n');
    const rs = ofKind(parse('pmap', run(900, 4096) + '\n' + run(900, 65536) + '\n'), 'pmap');
    expect(rs.map((r) => [r.line, r.rssKb, r.anonKb, r.largestAnonKb, r.complete])).toEqual([
      [1, 5896, 4096, 4096, true],
      [7, 67336, 65536, 65536, true],
    ]);
  });

  it('plain `pmap` (sizes with K) and its footers: " total 2192K", "Total: …K", `-d` "mapped:"', () => {
    const rows = [
      '3401:   man pmap',
      '00110000   1272K r-x--  /lib/tls/i686/cmov/libc-2.10.1.so',
      '09b3a000    380K rw---    [ anon ]',
      'bf8c0000     84K rw---    [ stack ]',
    ];
    for (const footer of [
      ' total     1736K',
      'Total:     1736K',
      'mapped: 1736K    writeable/private: 464K    shared: 0K',
    ]) {
      const [r] = ofKind(parse('pmap', [...rows, footer].join('\n')), 'pmap');
      expect(r).toMatchObject({
        pid: 3401,
        totalKb: 1736,
        rssKb: null,
        anonKb: null,
        largestAnonKb: 380,
        mappings: 3,
        complete: true,
      });
    }
  });

  it('a header with columns it does not know, or a footer that does not match the header, is a diagnostic', () => {
    const all = parse(
      'pmap',
      'Address Kbytes Foo Mode Mapping\n4: x\nAddress   Kbytes     RSS   Dirty Mode  Mapping\n00010000   4   4   0 r-x-- a\ntotal kB 4 4\n',
    );
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [1, 'pmap header with unknown columns'],
      [5, 'pmap footer does not match the header'],
    ]);
    expect(ofKind(all, 'pmap')).toHaveLength(1);
    expect(ofKind(all, 'pmap')[0]?.complete).toBe(false);
  });
});

describe('pmap: robustness', () => {
  it('never throws on pmap-shaped lines', () => {
    const line = fc.oneof(
      fc.constantFrom(...noisePieces('pmap')),
      fc
        .tuple(
          fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 8, maxLength: 16 }),
          fc.array(fc.constantFrom('1', '-', '12K', 'rw-p', 'r-x--', '[ anon ]', 'x'), { maxLength: 7 }),
        )
        .map(([a, rest]) => [a, ...rest].join('  ')),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 25 }), (lines) => {
        const p = createPmapParser();
        const out = [...lines.flatMap((l) => p.push(l)), ...p.end()];
        for (const r of out) expect(['pmap', 'diagnostic']).toContain(r.kind);
      }),
      { numRuns: 400 },
    );
  });
});

describe('pmap -X and -d (test/fixtures/pmap/procps-ng-X-and-d/SOURCE)', () => {
  it('-X: smaps columns by name, the ==== rule and the KB totals; -d: Offset/Device kept out of the mapping name', () => {
    const all = parseFixture('pmap', 'pmap/procps-ng-X-and-d/pmap_X_and_d.txt');
    expect(diagnostics(all)).toEqual([]);
    const [x, d] = ofKind(all, 'pmap');
    expect(x).toMatchObject({ line: 1, totalKb: 1050756, rssKb: 1049612, pssKb: 1049612, swapKb: 0 });
    expect(x).toMatchObject({
      anonKb: 1048588,
      anonFrom: 'column',
      largestAnonKb: 1048576,
      mappings: 3,
      complete: true,
    });
    expect(d).toMatchObject({ line: 8, totalKb: 1050624, largestAnonKb: 1048576, mappings: 2, complete: true });
  });
});

describe('pmap: every version as its source prints it (the printf of each pmap.c, rows made up, totals by hand)', () => {
  it('procps 3.2.0–3.2.5 `-d`: the footer "mapped NK" has no colon yet', () => {
    const [r] = pmapRecords([
      '3401:   man pmap',
      'Address   Kbytes Mode  Offset           Device     Mapping',
      '08048000     620 r-x-- 0000000000000000 003:00002  bash',
      '08e7e000    1012 rw--- 0000000000000000 000:00000    [ anon ]',
      'mapped 1632K    writeable/private: 1012K    shared: 0K',
    ]);
    expect(r).toMatchObject({ pid: 3401, totalKb: 1632, largestAnonKb: 1012, mappings: 2, complete: true });
  });

  it('procps 3.2.7/3.2.8 `-x` on 32-bit: RSS and Dirty in the rows, footer `total kB N - - -` one column wider than the header', () => {
    const [r, ...rest] = ofKind(
      parse(
        'pmap',
        [
          '2710:   -bash',
          'Address   Kbytes     RSS   Dirty Mode   Mapping',
          '08048000     620     412       0 r-x--  bash',
          '080e3000      20      20      20 rw---  bash',
          '08e7e000    1012     988     988 rw---    [ anon ]',
          'b7d3a000    1188     456       0 r-x--  libc-2.7.so',
          'bf9e8000      84      20      20 rw---    [ stack ]',
          '-------- ------- ------- ------- -------',
          'total kB    2924       -       -       -',
        ].join('\n'),
      ),
      'pmap',
    );
    expect(rest).toEqual([]);
    // RSS 412+20+988+456+20, Dirty 0+20+988+0+20 (the footer's `-`: summed from the rows); anon 988+20.
    expect(r).toMatchObject({ totalKb: 2924, rssKb: 1896, dirtyKb: 1028, anonKb: 1008, largestAnonKb: 988 });
    expect(r?.complete).toBe(true);
  });

  it('procps-ng `-XX` (kernel 6.1 arm64): VmFlags words before the mapping (a mapping named `sh` too), no VmFlags total, Dirty = Shared_Dirty + Private_Dirty', () => {
    const text = [
      '812:   sh -c llama-cli',
      '     Address Perm   Offset Device Inode    Size KernelPageSize MMUPageSize    Rss    Pss Pss_Dirty Shared_Clean Shared_Dirty Private_Clean Private_Dirty Referenced Anonymous LazyFree AnonHugePages ShmemPmdMapped FilePmdMapped Shared_Hugetlb Private_Hugetlb Swap SwapPss Locked THPeligible              VmFlags Mapping',
      'aaaab5e40000 r-xp 00000000  b3:02  1311    1276              4           4   1100    550         0         1100            0             0             0       1100         0        0             0              0             0              0               0    0       0      0           0       rd ex mr mw me sh',
      'aaaacf1a2000 rw-p 00000000  00:00     0     132              4           4     36     36        36            0            0             0            36         36        36        0             0              0             0              0               0    8       8      0           0    rd wr mr mw me ac [heap]',
      'ffff7c000000 rw-p 00000000  00:00     0 1048576              4           4 524288 524288    524288            0            0             0        524288     524288    524288        0        522240              0             0              0               0    0       0      0           1 rd wr mr mw me ac sd ',
      'ffffd8a3e000 rw-p 00000000  00:00     0     132              4           4     12     12        12            0            4             0             8         12        12        0             0              0             0              0               0    0       0      0           0 rd wr mr mw me gd ac [stack]',
      '                                        ======= ============== =========== ====== ====== ========= ============ ============ ============= ============= ========== ========= ======== ============= ============== ============= ============== =============== ==== ======= ====== =========== ',
      '                                        1050116             16          16 525436 524886    524336         1100            4             0        524332     525436    524336        0        522240              0             0              0               0    8       8      0           1 KB ',
    ].join('\n');
    const all = parse('pmap', text, { listMappings: true });
    expect(diagnostics(all)).toEqual([]);
    const [r] = ofKind(all, 'pmap');
    expect(r).toMatchObject({
      pid: 812,
      totalKb: 1050116,
      rssKb: 525436,
      pssKb: 524886,
      dirtyKb: 524336, // Shared_Dirty 4 + Private_Dirty 524332
      swapKb: 8,
      anonKb: 524336,
      anonFrom: 'column',
      largestAnonKb: 524288,
      mappings: 4,
      complete: true,
    });
    expect(r?.mappingsList?.map((m) => [m.mapping, m.rssKb, m.dirtyKb])).toEqual([
      ['sh', 1100, 0],
      ['[heap]', 36, 36],
      ['', 524288, 524288],
      ['[stack]', 12, 12],
    ]);
  });

  it.each([
    // procps-ng 3.3/4.x `-x -q`: `%0*lx %*lu %*llu %*llu %*s %s`, widths 16/7/7/7/5.
    ['procps-ng -x -q', '0000ffff7c000000 1048576  524288  524288 rw---   [ anon ]', 524288, null, 524288],
    // busybox 1.x `-x -q`: `%016lx ` `%7lu %7lu %7lu %7lu ` ` %.4s  %s` (PSS, no RSS; anonymous name empty).
    ['busybox -x -q', '0000ffff7c000000 1048576  524288  524288       0  rw-p  ', null, 524288, 524288],
    // toybox `-x -q`: `%0*llx % *lld ` `% 7lld %7lld %7lld ` `%s- %s` with `  [anon]`.
    ['toybox -x -q', '0000ffff7c000000 1048576  524288  524288       0 rw---   [anon]', null, 524288, 524288],
    // procps 3.2.0–3.2.5 `-x -q`: `%016lx %7lu       -       -       - %s  %s` (nothing resident known).
    ['procps 3.2.0 -x -q', '0000ffff7c000000 1048576       -       -       - rw---    [ anon ]', null, null, null],
    // procps-ng `-d -q`: `%0*lx %*lu %*s %0*llx %*.*s%03x:%05x %s` (sizes only).
    ['procps-ng -d -q', '0000ffff7c000000 1048576 rw--- 0000000000000000 000:00000   [ anon ]', null, null, 1048576],
  ])(
    '%s: rows without header or footer are read by their shape, the record says it had no footer',
    (_, row, rss, pss, largest) => {
      const [r] = pmapRecords(['77:   llama-cli', row, row]);
      expect(r).toMatchObject({ pid: 77, totalKb: 2 * 1048576, mappings: 2, complete: false });
      expect([r?.rssKb, r?.pssKb, r?.largestAnonKb]).toEqual([
        rss === null ? null : 2 * rss,
        pss === null ? null : 2 * pss,
        largest,
      ]);
    },
  );

  it('a process it cannot read, a kernel thread, a process gone: diagnostics, never a 0 kB reading', () => {
    const all = parse(
      'pmap',
      [
        // procps-ng: smaps of another user's process cannot be opened, only the `PID:` line is printed.
        '1:   /sbin/init splash',
        // procps-ng 3.3 plain and `-x` on kthreadd: maps is empty, the footer says 0.
        '2:   [kthreadd]',
        ' total                0K',
        '2:   [kthreadd]',
        'Address           Kbytes     RSS   Dirty Mode  Mapping',
        '---------------- ------- ------- ------- ',
        'total kB                0       0       0',
        // busybox: read_cmdline's fallback text, then nothing.
        '99999: no such process',
        // toybox: error_msg on stderr.
        'pmap: no /proc/99998/cmdline',
      ].join('\n'),
    );
    expect(ofKind(all, 'pmap')).toEqual([]);
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [1, 'pmap output without mappings'],
      [2, 'pmap table without mappings (a kernel thread, or maps unreadable)'],
      [4, 'pmap table without mappings (a kernel thread, or maps unreadable)'],
      [8, 'pmap output without mappings'],
      [9, 'pmap error message'],
    ]);
  });
});

describe('pmap in other languages (test/fixtures/pmap/procps-ng-4.0.2-locales/SOURCE)', () => {
  // One process (a mawk holding a 32 MiB string), captured with procps-ng 4.0.2 in each language Debian 12
  // ships it in. The figures below are the ones pmap printed in the C locale (its footers, the 32772 kB
  // `[ anon ]` row, 34 rows); anonKb of -x is the RSS of the rows without a file, stack included:
  // 16 + 156 + 32772 + 8 + 20 + 8 + 0 + 0 + 4 + 16 (stack) + 0 = 33000.
  const LANGUAGES = [
    'C',
    'de_DE',
    'es_ES',
    'fr_FR',
    'ka_GE',
    'ko_KR',
    'pl_PL',
    'pt_BR',
    'ro_RO',
    'sv_SE',
    'uk_UA',
    'vi_VN',
    'zh_CN',
  ];
  const same = { totalKb: 36768, largestAnonKb: 32772, mappings: 34, complete: true };

  it.each(LANGUAGES)('%s: -x, plain, -d and -X read as in C, every line understood', (language) => {
    const all = parseFixture('pmap', `pmap/procps-ng-4.0.2-locales/${language}.txt`);
    expect(diagnostics(all)).toEqual([]);
    const [x, plain, d, X, XX] = ofKind(all, 'pmap');
    expect(x).toMatchObject({ ...same, rssKb: 35272, dirtyKb: 33056, anonKb: 33000, anonFrom: 'mappings' });
    expect(plain).toMatchObject({ ...same, rssKb: null });
    expect(d).toMatchObject({ ...same, rssKb: null });
    // -X: the kernel's column names; Anonymous's total is the footer's.
    expect(X).toMatchObject({ ...same, rssKb: 35272, anonKb: 33056, anonFrom: 'column', swapKb: 0 });
    expect(X?.pssKb).toBeGreaterThan(33_700);
    // -XX (C, de_DE, ko_KR, vi_VN): VmFlags words kept out of the mapping names.
    if (XX) expect(XX).toMatchObject({ ...same, rssKb: 35272, dirtyKb: 33056, anonKb: 33056 });
  });

  it('names procps gives mappings without a file, in any language, are anonymous; System V shared memory is not', () => {
    const names = [
      '[ anon ]',
      '[ anôn ]',
      '[ анон ]',
      '[ vô danh ]',
      '[ pile  ]',
      '[ стек  ]',
      '[ shmid=0x2a ]',
      '[heap]',
      'libc.so.6',
    ];
    const text = [
      '7: x',
      'Address           Kbytes     RSS   Dirty Mode  Mapping',
      ...names.map((n, k) => `00007f9fd83${k}5000       8       ${k}       0 rw---   ${n}`),
    ].join('\n');
    const [rec] = ofKind(parse('pmap', text, { listMappings: true }), 'pmap');
    expect(rec?.mappingsList?.map((m) => [m.mapping, m.anonymous])).toEqual([
      ['[ anon ]', true],
      ['[ anôn ]', true],
      ['[ анон ]', true],
      ['[ vô danh ]', true],
      ['[ pile  ]', true],
      ['[ стек  ]', true],
      ['[ shmid=0x2a ]', false],
      ['[heap]', true],
      ['libc.so.6', false],
    ]);
  });

  it('ka_GE: addresses padded to 27 hex digits read as their 16', () => {
    const all = parseFixture('pmap', 'pmap/procps-ng-4.0.2-locales/ka_GE.txt', { listMappings: true });
    const [x] = ofKind(all, 'pmap');
    expect(x?.mappingsList?.[0]?.address).toBe('000055d015f7d000');
  });

  it('what only looks like a translated header or footer stays a diagnostic', () => {
    const all = parse(
      'pmap',
      [
        '7: x',
        'run 2 of 3 done', // after `PID:` but with digits: not a header
        '0000000000010000       4       4       0 r-x-- a',
        'kB gesamt 4 4 0', // totals without the `----` rule above them
        '---------------- ------- ------- -------',
        'kB gesamt 4 4 0',
      ].join('\n'),
    );
    expect(diagnostics(all).map((d) => [d.line, d.reason])).toEqual([
      [2, 'not a pmap line'],
      [4, 'not a pmap line'],
    ]);
    expect(ofKind(all, 'pmap')).toMatchObject([{ totalKb: 4, rssKb: 4, dirtyKb: 0, complete: true }]);
  });
});
