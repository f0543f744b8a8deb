// The run form in the real UI (renderer/src/ui/RunFormPanel.tsx), driven the way a user does: every
// control is `field-<name>`; the KV type and the cache mode are selects, the others text inputs.
import type { Page } from 'playwright-core';

export type RunFormValues = Partial<
  Record<
    'layers' | 'kvHeads' | 'headDim' | 'kvType' | 'mode' | 'tokens' | 'tps' | 'weightsMb' | 'intervalMs' | 'budget',
    string
  >
>;

const SELECTS: ReadonlySet<string> = new Set(['kvType', 'mode']);

/** Fill the fields in the order given (a select takes the option's value). */
export async function fillRunForm(page: Page, values: RunFormValues): Promise<void> {
  for (const [name, value] of Object.entries(values)) {
    const field = page.getByTestId(`field-${name}`);
    if (SELECTS.has(name)) await field.selectOption(value);
    else await field.fill(value);
  }
}

/** Pick the demo engine, fill the form and press Start (the board is whichever is selected). */
export async function startDemoRun(page: Page, values: RunFormValues): Promise<void> {
  await page.getByTestId('engine-kind-demo').click();
  await fillRunForm(page, values);
  await page.getByTestId('start-run').click();
}
