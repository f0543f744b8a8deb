// The report's inline SVG chart (shared/report/svg-chart.ts); tick steps are tested with
// shared/format/axis.ts.
import { describe, expect, it } from 'vitest';
import { renderSvgChart } from '../../../../shared/report/svg-chart';

describe('SVG chart', () => {
  it('one polyline per series, labels escaped, no script', () => {
    const svg = renderSvgChart({
      title: 'RSS <b>',
      xLabel: 'tokens',
      xUnit: 'tokens',
      series: [
        {
          name: 'RSS',
          role: 'rss',
          points: [
            [0, 0],
            [100, 1048576],
            [200, 2097152],
          ],
        },
        {
          name: 'budget <i>',
          role: 'budget',
          points: [
            [0, 3145728],
            [200, 3145728],
          ],
        },
      ],
      markers: [{ x: 150, kind: 'oom', label: 'oom' }],
      xMax: 200,
      yMax: 3300000,
      notes: [],
    });
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg).toContain('<title>RSS &lt;b&gt;</title>');
    expect(svg).toContain('budget &lt;i&gt;');
    expect(svg).not.toContain('<script');
    // Y ticks in MiB on round values; the 1 MiB point lands a third of the way up from 0 to 3 MiB.
    expect(svg).toContain('>3 MiB</text>');
  });
});
