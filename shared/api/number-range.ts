// What a number field allows, said in a form field's words: "a whole number from 1 to 512",
// "a number from 0.1 to 100,000 tokens/s". The limits are read from the contract's own zod schema
// (numberRangeOf), so a form says exactly what the main side accepts; the run form, the board
// editor and the alert thresholds word every number problem with allowedNumberText, instead of
// zod's "Too big: expected number to be <=512". Pure.
import { z } from 'zod';
import { formatCount } from '../format/units';

export interface NumberRange {
  /** The smallest value allowed, itself included; null: no lower limit. */
  min: number | null;
  /** The largest value allowed, itself included; null: no upper limit. */
  max: number | null;
  /** Only whole numbers. */
  integer: boolean;
  /** min itself is not allowed ("above 0"): a number that is not whole only (a whole one's min is moved up). */
  minExclusive?: boolean;
}

type NumberSchema = z.ZodNumber | z.ZodDefault<z.ZodNumber> | z.ZodOptional<z.ZodNumber>;

function innerNumber(schema: NumberSchema): z.ZodNumber {
  if (schema instanceof z.ZodNumber) return schema;
  if (schema instanceof z.ZodDefault) return schema.unwrap();
  return schema.unwrap();
}

/**
 * The range a number schema accepts. zod's `.int()` alone bounds a number by ±2^53: that is no
 * limit of the field, so it reads as none; `.positive()` on a whole number reads as "from 1".
 */
export function numberRangeOf(schema: NumberSchema): NumberRange {
  const n = innerNumber(schema);
  const integer = n.isInt;
  const low = n.minValue;
  const high = n.maxValue;
  let min: number | null = low === null || !Number.isFinite(low) || low <= Number.MIN_SAFE_INTEGER ? null : low;
  const max = high === null || !Number.isFinite(high) || high >= Number.MAX_SAFE_INTEGER ? null : high;
  let minExclusive = false;
  if (min !== null && !n.safeParse(min).success) {
    if (integer) min = Math.floor(min) + 1;
    else minExclusive = true;
  }
  return { min, max, integer, ...(minExclusive ? { minExclusive } : {}) };
}

/** n as a form prints it: thousands grouped ("60,000") unless `grouping` is off (a port: "65535"). */
function numberText(n: number, grouping: boolean): string {
  const decimals = Math.min(6, (String(n).split('.')[1] ?? '').length);
  return grouping ? formatCount(n, decimals) : n.toFixed(decimals);
}

/**
 * What a field allows, for its error message: "a whole number from 20 to 60,000 ms", "a number
 * above 0 seconds", "a whole number of tokens, 1 or more". `unit` is the field's, as a word
 * ("tokens", "ms", "%").
 */
export function allowedNumberText(range: NumberRange, options: { unit?: string; grouping?: boolean } = {}): string {
  const kind = range.integer ? 'a whole number' : 'a number';
  const at = (n: number) => numberText(n, options.grouping ?? true);
  const unit = options.unit ? ` ${options.unit}` : '';
  const { min, max } = range;
  if (min !== null && max !== null)
    return range.minExclusive
      ? `${kind} above ${at(min)}, at most ${at(max)}${unit}`
      : `${kind} from ${at(min)} to ${at(max)}${unit}`;
  const ofUnit = options.unit ? ` of ${options.unit}` : '';
  if (min !== null)
    return range.minExclusive ? `${kind} above ${at(min)}${unit}` : `${kind}${ofUnit}, ${at(min)} or more`;
  if (max !== null) return `${kind}${ofUnit}, at most ${at(max)}`;
  return `${kind}${ofUnit}`;
}

/** zod issue codes about a number's value or type: a form says the field's allowed range instead. */
const NUMBER_ISSUE_CODES: ReadonlySet<string> = new Set(['too_small', 'too_big', 'invalid_type', 'not_multiple_of']);

/** Whether a zod issue is about a number's value or type (a form words it with allowedNumberText). */
export function isNumberIssue(issue: { code: string }): boolean {
  return NUMBER_ISSUE_CODES.has(issue.code);
}
