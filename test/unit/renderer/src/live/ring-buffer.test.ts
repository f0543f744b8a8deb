import { describe, expect, it } from 'vitest';
import { createMemoryRing, RingBuffer } from '../../../../../renderer/src/live/ring-buffer';

describe('RingBuffer', () => {
  it('keeps rows in order until full', () => {
    const ring = new RingBuffer(4, ['a', 'b'] as const);
    ring.push({ a: 1, b: 10 });
    ring.push({ a: 2, b: 20 });
    expect(ring.size).toBe(2);
    expect(Array.from(ring.column('a'))).toEqual([1, 2]);
    expect(Array.from(ring.column('b'))).toEqual([10, 20]);
    expect(ring.last('a')).toBe(2);
    expect(ring.get('b', 0)).toBe(10);
  });

  it('overwrites the oldest rows when full and counts them as dropped', () => {
    const ring = new RingBuffer(3, ['v'] as const);
    for (let i = 1; i <= 7; i++) ring.push({ v: i });
    expect(ring.size).toBe(3);
    expect(ring.totalPushed).toBe(7);
    expect(ring.dropped).toBe(4);
    expect(Array.from(ring.column('v'))).toEqual([5, 6, 7]);
    expect(ring.get('v', 0)).toBe(5);
    expect(ring.last('v')).toBe(7);
  });

  it('unrolls a wrapped buffer at every split point', () => {
    for (let pushes = 1; pushes <= 12; pushes++) {
      const ring = new RingBuffer(5, ['v'] as const);
      for (let i = 0; i < pushes; i++) ring.push({ v: i });
      const expected = Array.from({ length: Math.min(pushes, 5) }, (_, k) => pushes - Math.min(pushes, 5) + k);
      expect(Array.from(ring.column('v')), `after ${pushes}`).toEqual(expected);
    }
  });

  it('stores missing and null values as NaN', () => {
    const ring = new RingBuffer(2, ['a', 'b'] as const);
    ring.push({ a: 1, b: null });
    ring.push({ b: 3 });
    expect(Array.from(ring.column('a'))).toEqual([1, NaN]);
    expect(Array.from(ring.column('b'))).toEqual([NaN, 3]);
  });

  it('changes version on every push and on clear', () => {
    const ring = new RingBuffer(2, ['a'] as const);
    const v0 = ring.version;
    ring.push({ a: 1 });
    const v1 = ring.version;
    expect(v1).not.toBe(v0);
    ring.clear();
    expect(ring.version).not.toBe(v1);
    expect(ring.size).toBe(0);
    expect(ring.last('a')).toBeUndefined();
    expect(ring.column('a')).toHaveLength(0);
  });

  it('refuses out-of-range rows and a non-positive capacity', () => {
    const ring = new RingBuffer(2, ['a'] as const);
    ring.push({ a: 1 });
    expect(() => ring.get('a', 1)).toThrow(RangeError);
    expect(() => new RingBuffer(0, ['a'] as const)).toThrow(RangeError);
  });

  it('has the memory chart columns', () => {
    expect(createMemoryRing(8).keys).toEqual(['tMs', 'tokens', 'rssBytes', 'rssAnonBytes', 'rssFileBytes']);
  });
});
