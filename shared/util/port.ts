// A TCP port as a user types it: one check for the CLI's targets (electron/node/transport/
// target-spec.ts) and the board form's jump hosts (renderer/src/state/board-form.ts). Pure.

/** 1–65535 written in decimal digits (at most 5: "00022" reads as a port, "000022" does not). */
export function isPortText(text: string): boolean {
  return /^\d{1,5}$/.test(text) && Number(text) >= 1 && Number(text) <= 65535;
}
