// How a series is named to people, in one place: the reports (Markdown, HTML and PDF rows, chart
// legends), the dashboard's "All series" readouts and its panel legends, and the run's alerts.
// Machine-facing outputs (CSV columns, JSON keys, Prometheus labels, `profile --json`) keep the raw
// sample key and never come here.
//
// The scheme: a plain key is its definition's label (`GPU load (GR3D)`); a pattern's key is
// `<label>: <its * part in words>`, `temperature (tegrastats): AO`, `power rail, average: VDD_IN`,
// `CPU clock: policy0`. Label first, then which one, because:
// - it needs nothing but what every definition already has: a collector added to the registry has
//   its series named without another string, and the label keeps its source's qualifier, which is
//   what tells `temperature: cpu` (a thermal zone) from `temperature (tegrastats): CPU`;
// - it cannot give two series one name: labels are unique and hold no `:` (the registry test), so
//   the text before the first `: ` says the definition, and a definition's words keep its parts
//   apart (SeriesDef.partWords);
// - the sample key and its unit suffix are never in it (a pattern's part is only what `*` matched),
//   and a report's rows of one family read as one list, `CPU load (tegrastats): core 0`, `… core 1`.
// A legend names a series within its panel, under its track's title, so it can be shorter: the
// definition's `legend` (`VDD_IN avg`, `AO temp`), else the full name.
import type { RegisteredSeries } from './registry';

type Named = Pick<RegisteredSeries, 'key' | 'pattern' | 'label' | 'partWords' | 'legend'>;

/** What the `*` of a series' pattern matched (`AO` of `tegra.temp.AO.C`), or null for a plain key. */
export function seriesPart(s: Pick<RegisteredSeries, 'key' | 'pattern'>): string | null {
  const star = s.pattern.indexOf('*');
  if (star < 0) return null;
  const tail = s.pattern.length - star - 1;
  return s.key.slice(star, s.key.length - tail);
}

/** A pattern's part in its definition's words (`memory (some)` of `memory.some`); the part itself without them. */
function partInWords(s: Named, part: string): string {
  return s.partWords?.(part) || part;
}

/** The name of a series for people: its label, and for a pattern's key which one, `temperature (tegrastats): AO`. */
export function seriesName(s: Named): string {
  const part = seriesPart(s);
  return part === null ? s.label : `${s.label}: ${partInWords(s, part)}`;
}

/** The series' name in a dashboard legend: its definition's short one, else seriesName. */
export function seriesLegendName(s: Named): string {
  const part = seriesPart(s);
  if (part === null) return typeof s.legend === 'string' ? s.legend : s.label;
  return typeof s.legend === 'function' ? s.legend(part) : seriesName(s);
}
