// The value of a two-column row of a Markdown report (`| Label | Value |`), read off the file the
// way a reader finds it: by its label as written, regex metacharacters taken literally.
export function markdownRow(markdown: string, label: string): string | undefined {
  const literal = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^\\| ${literal} \\| (.*) \\|$`, 'm').exec(markdown)?.[1];
}
