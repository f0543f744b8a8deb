// The one Content-Security-Policy of the UI. The Electron shell sends it as a header
// (electron/main), browser mode sends it as a header (bridge-server.ts), and renderer/index.html
// carries the same string in a <meta> tag (a test checks they are identical), so the renderer
// runs under one policy whichever shell hosts it.
//
// Starting point: default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline';
// img-src 'self' data:; connect-src 'self' ws://127.0.0.1:*; font-src 'self'. Changes:
// - style-src 'self' (no 'unsafe-inline'): React and recharts 3 set styles through the CSSOM
//   (element.style…), which CSP does not govern, and the built CSS is a file. Checked in Chromium:
//   a full demo run, legend, tooltip and reference line under this policy report no violation
//   (test/e2e asserts it). Only `electron-vite dev` injects <style> elements: DEV_… below.
// - connect-src 'self': CSP Level 3 lets 'self' match ws:// on the page's own host and port, the
//   only socket the UI opens (/api on the origin that served it); `ws://127.0.0.1:*` would also
//   allow every other loopback service, so it is left out. (In Electron the UI uses IPC.)
// - base-uri 'none'; form-action 'none': not covered by default-src; nothing in the UI needs them.
// frame-ancestors cannot be set from a <meta> tag, so browser mode adds X-Frame-Options: DENY.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * Development server only (electron-vite dev): Vite delivers CSS as injected <style> elements.
 * Scripts stay 'self' (main.tsx imports React Refresh's preamble as a module instead of inline).
 */
export const DEV_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
  "style-src 'self'",
  "style-src 'self' 'unsafe-inline'",
);
