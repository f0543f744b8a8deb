import type { ReactNode } from 'react';

/**
 * A form field whose accessible name is exactly `label`: the unit, hint and error are outside the
 * <label> and reach assistive technology as the control's description (aria-describedby, which
 * `children` receives). The run form and the KV calculator both lay out their fields with it.
 */
export function LabelledField({
  id,
  label,
  hint,
  error,
  errorTestId,
  children,
}: {
  /** The control's element id; the hint and the error take `${id}-hint` and `${id}-error`. */
  id: string;
  label: string;
  hint?: string;
  error?: string;
  errorTestId: string;
  children: (describedBy: string | undefined) => ReactNode;
}) {
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children(describedBy)}
      {error ? (
        <span className="field-error" id={`${id}-error`} data-testid={errorTestId}>
          {error}
        </span>
      ) : (
        hint && (
          <span className="field-hint" id={`${id}-hint`}>
            {hint}
          </span>
        )
      )}
    </div>
  );
}
