// Keys named like members of Object.prototype. Read from input into a plain `{}` they find a
// function ("constructor", "toString"…), `key in obj` is true before any line set them, and
// assigning "__proto__" sets the prototype instead of storing the value (shared/util/dictionary.ts).
export const PROTOTYPE_KEYS = [
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__proto__',
  'prototype',
  '__defineGetter__',
] as const;
