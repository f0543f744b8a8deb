// Tests index into results they expect to be there (model.runs[0], findings[1]). Under
// noUncheckedIndexedAccess such a read is `T | undefined`; `defined` fails the test with a
// message when it is missing, instead of a TypeError further down.
export function defined<T>(value: T | undefined, what = 'value'): T {
  if (value === undefined) throw new Error(`expected ${what} to be there`);
  return value;
}
