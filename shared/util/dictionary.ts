// Dictionaries whose keys come from input (a tool's output line, a file). A plain `{}` inherits
// Object.prototype: a key named "constructor" or "toString" reads a function as if it were data,
// `key in obj` is true for them before any line set them, and assigning "__proto__" sets the
// prototype instead of storing the value. An object without a prototype has none of these, and
// JSON.stringify writes it like any other object.

/** An empty dictionary for keys read from input (see above). */
export function emptyDictionary<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}
