// A modal dialog: a dimmed backdrop, a titled box, Escape = cancel, focus moved into the box on
// open, kept inside while open (Tab wraps), and given back on close to the control the action
// started from, or the nearest one still usable (ui/focus-return.ts); no app shortcut acts while
// it is open. Plain elements (role="dialog"), no portal: the app has one root. A modal opened over another one (the question
// before "Remove board" over the board editor) owns the keyboard alone until it closes.
import { useEffect, useRef, type ReactNode } from 'react';
import { captureTrigger, FOCUSABLE, giveFocusBack } from './focus-return';

/** The open modals, oldest first: only the last one answers keys (Escape closed both, the editor first). */
const openModals: object[] = [];

export function Modal({
  title,
  onCancel,
  children,
  testId,
  wide,
  tone,
}: {
  title: ReactNode;
  onCancel: () => void;
  children: ReactNode;
  testId: string;
  wide?: boolean;
  tone?: 'warn';
}) {
  const box = useRef<HTMLDivElement>(null);
  const cancel = useRef(onCancel);
  useEffect(() => {
    cancel.current = onCancel;
  });

  useEffect(() => {
    const trigger = captureTrigger();
    const first = box.current?.querySelector<HTMLElement>(
      '[data-autofocus], input:not([disabled]), button:not([disabled])',
    );
    first?.focus();
    const self = {};
    openModals.push(self);
    const onKey = (e: KeyboardEvent) => {
      // The dialog owns the keyboard: the app's shortcuts (ui/dashboard/dashboard-hooks.ts, on
      // window) must not act behind it; Ctrl+Enter in the Add-board dialog started a run.
      e.stopPropagation();
      if (openModals.at(-1) !== self) return;
      if (e.key === 'Escape') {
        cancel.current();
      } else if (e.key === 'Tab' && box.current) {
        // Focus stays in the dialog (aria-modal): Tab from the last control wraps to the first.
        const focusable = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
          (el) => !el.hasAttribute('disabled') && el.offsetParent !== null,
        );
        const first = focusable[0];
        const last = focusable[focusable.length - 1];
        if (!first || !last) return;
        const inside = box.current.contains(document.activeElement);
        if (e.shiftKey && (document.activeElement === first || !inside)) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      const depth = openModals.indexOf(self);
      openModals.splice(depth, 1);
      giveFocusBack(trigger, depth);
    };
  }, []);

  return (
    <div className="modal-backdrop">
      <div
        ref={box}
        className={`modal${wide ? ' modal-wide' : ''}${tone === 'warn' ? ' modal-warn' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${testId}-title`}
        data-testid={testId}
      >
        <h2 className="modal-title" id={`${testId}-title`}>
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}
