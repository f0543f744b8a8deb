// The size of an element, for what draws at an exact pixel size (the canvas tracks, the recharts
// charts). Measured in a layout effect, so the first frame already has it: React re-renders at
// the real size before the browser paints, and nothing is drawn twice — once at a guess or empty,
// then again a frame later (what a plain effect, or recharts' ResponsiveContainer, does: opening an
// 8-hour session drew every track at a guessed width and the memory chart empty first; issue 9's
// UI benchmark). A ResizeObserver follows later changes.
import { useLayoutEffect, useRef, useState } from 'react';

export interface ElementSize {
  width: number;
  height: number;
}

/** A ref for the element and its size in whole pixels (null until measured: the first layout). */
export function useElementSize<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [size, setSize] = useState<ElementSize | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const width = Math.floor(el.clientWidth);
      const height = Math.floor(el.clientHeight);
      setSize((old) => (old && old.width === width && old.height === height ? old : { width, height }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, size] as const;
}
