// Where the keyboard focus goes when a modal dialog closes (ui/Modal.tsx): back to the control that
// started the action (its "trigger"), else to the nearest usable control of the trigger's region,
// else to the main landmark — never to <body>, where the next Tab starts again from the page's top.
//
// Why the dialog cannot simply remember document.activeElement when it opens: the action that
// opens it often disables or re-renders its own button first ("Test & probe" becomes a disabled
// "Connecting…", "Probe again" is replaced by the probing banner), and Chromium moves the focus of
// a control that becomes disabled to <body>. A question asked by a connection (host key, then
// passphrase) opens one dialog after another with nothing focused in between. So the last control
// focused outside the dialogs is tracked from the start (trackFocusOutsideDialogs), and a dialog
// that opens while the focus is on <body> takes that one, or the trigger of a dialog that closed
// in the same moment.

/** What can hold the keyboard focus (the dialogs' Tab wrap uses it too). */
export const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

const MODAL = '[role="dialog"][aria-modal="true"]';

/** The control an action started from, with its ancestors as they were then (its regions). */
export interface FocusTrigger {
  element: HTMLElement;
  /** Closest first, <body> excluded: still there when the trigger itself has been removed. */
  regions: HTMLElement[];
}

let lastOutside: FocusTrigger | null = null;
let tracking = false;
/** The trigger a dialog closing right now hands on (to a dialog that opens in the same moment). */
let handing: { trigger: FocusTrigger | null; depth: number } | null = null;
let opened = 0;

function triggerFrom(element: HTMLElement): FocusTrigger {
  const regions: HTMLElement[] = [];
  for (let a = element.parentElement; a && a !== document.body; a = a.parentElement) regions.push(a);
  return { element, regions };
}

function usable(element: HTMLElement): boolean {
  return element.isConnected && !element.matches(':disabled') && element.getClientRects().length > 0;
}

/** From now on, the last control focused outside a modal dialog is remembered. Once, at start-up. */
export function trackFocusOutsideDialogs(doc: Document = document): void {
  if (tracking) return;
  tracking = true;
  doc.addEventListener(
    'focusin',
    (e) => {
      const el = e.target;
      if (el instanceof HTMLElement && el !== doc.body && !el.closest(MODAL)) lastOutside = triggerFrom(el);
    },
    true,
  );
}

/**
 * The trigger of a dialog opening now: the one a dialog closing in the same moment hands on, else
 * the focused control, else (the action left the focus on <body>) the last control focused.
 */
export function captureTrigger(): FocusTrigger | null {
  opened += 1;
  // First what a dialog closing in this same moment hands on: with nothing focused in between (the
  // next question of a connection), or when React mounts a dialog twice (StrictMode, in
  // development) and the focus is in its own box already.
  if (handing) {
    const { trigger } = handing;
    handing = null;
    return trigger;
  }
  const active = document.activeElement;
  if (active instanceof HTMLElement && active !== document.body) return triggerFrom(active);
  return lastOutside;
}

/**
 * The control to focus for `trigger`: itself while usable; else in its closest region still on the
 * page that has a usable control, the first one after it (or the last before it; the first one when
 * the trigger is gone).
 */
export function returnTarget(trigger: FocusTrigger): HTMLElement | null {
  const { element, regions } = trigger;
  if (usable(element)) return element;
  for (const region of regions) {
    if (!region.isConnected) continue;
    const controls = [...region.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(usable);
    if (controls.length === 0) continue;
    if (!element.isConnected) return controls[0] ?? null;
    const after = controls.find((c) => element.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING);
    return after ?? controls.at(-1) ?? null;
  }
  return null;
}

/** The main landmark, focusable by script only: where the focus goes when no control can take it. */
function landmark(): HTMLElement | null {
  const main = document.querySelector<HTMLElement>('main');
  if (main && !main.hasAttribute('tabindex')) main.tabIndex = -1;
  return main;
}

/**
 * Gives the focus back for a dialog that closed (`depth`: its place in the stack of open dialogs,
 * 0 for the lowest). Done a moment later, after React has mounted what the same change opened: a
 * dialog that replaces this one takes its trigger instead, and when a dialog and the one it was
 * opened over close together, the lower one's trigger (outside both) wins.
 */
export function giveFocusBack(trigger: FocusTrigger | null, depth: number): void {
  if (handing && handing.depth <= depth) return;
  const first = handing === null;
  handing = { trigger, depth };
  const openedBefore = opened;
  if (!first) return;
  queueMicrotask(() => {
    const pending = handing;
    handing = null;
    // A dialog opened since has the focus, and took this trigger if it needed one.
    if (!pending || opened !== openedBefore) return;
    const active = document.activeElement;
    if (active instanceof HTMLElement && active !== document.body && active.isConnected && active.closest(MODAL))
      return;
    (pending.trigger ? returnTarget(pending.trigger) : null)?.focus();
    if (document.activeElement === null || document.activeElement === document.body) landmark()?.focus();
  });
}
