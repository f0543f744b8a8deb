/**
 * `kvscope web`'s port when none is given: the same on every start, because the page keeps its
 * settings (theme, panel layout, alert thresholds, the form) in the browser's storage of its
 * origin, and a new port is a new origin (QA: restarts on any free port lost them all). When it is
 * taken (another KVScope), the command falls back to any free port and says so.
 */
export const DEFAULT_WEB_PORT = 17373;
