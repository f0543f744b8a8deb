// The frame every recharts line chart shares (memory against tokens, compare, KV calculator): a
// responsive LineChart with the grid, numeric axes, tooltip and legend (unless told not to) in
// one look; the caller passes what differs (data keys, domains, formatters) and the lines and
// reference lines as children. Theme colours are the custom properties of
// renderer/src/styles/base.css, so the light theme applies too, and nothing animates (an
// animation redraws every point each frame).
import type { ComponentProps, ReactNode } from 'react';
import { CartesianGrid, Legend, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { useElementSize } from './use-element-size';

const AXIS_PROPS = { stroke: 'var(--text-muted)', tick: { fill: 'var(--text-muted)', fontSize: 12 } } as const;
const TOOLTIP_STYLE = {
  background: 'var(--panel-raised)',
  border: '1px solid var(--border)',
  borderRadius: 6,
  color: 'var(--text)',
} as const;

/** A line of measured or computed points: no dot per point, no animation. */
export const LINE_PROPS = { dot: false, isAnimationActive: false } as const;

/** The x axis' caption under the ticks. */
export function xAxisLabel(value: string, offset: number) {
  return { value, position: 'insideBottom', offset, fill: 'var(--text-muted)', fontSize: 12 } as const;
}

interface Props {
  margin: { top: number; right: number; bottom: number; left: number };
  /** Rows shared by every line (lines with their own `data` leave it out). */
  data?: ComponentProps<typeof LineChart>['data'];
  x: ComponentProps<typeof XAxis>;
  y: ComponentProps<typeof YAxis>;
  tooltip: Pick<ComponentProps<typeof Tooltip>, 'formatter' | 'labelFormatter'>;
  /**
   * recharts' legend (its defaults when left out); false: none (MemoryChart.tsx draws its own in
   * HTML, which spares recharts a re-layout after the chart mounts).
   */
  legend?: ComponentProps<typeof Legend> | false;
  children: ReactNode;
}

export function LineChartFrame({ margin, data, x, y, tooltip, legend, children }: Props) {
  // Sized by its container (CSS), measured before the first paint (use-element-size.ts).
  const [ref, size] = useElementSize<HTMLDivElement>();
  return (
    <div ref={ref} className="line-chart-frame">
      {size && size.width > 0 && size.height > 0 && (
        <LineChart width={size.width} height={size.height} data={data} margin={margin}>
          <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis type="number" {...AXIS_PROPS} {...x} />
          <YAxis type="number" width={72} {...AXIS_PROPS} {...y} />
          <Tooltip contentStyle={TOOLTIP_STYLE} isAnimationActive={false} {...tooltip} />
          {legend !== false && <Legend {...legend} />}
          {children}
        </LineChart>
      )}
    </div>
  );
}
