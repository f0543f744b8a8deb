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
