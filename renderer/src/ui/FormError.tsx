/**
 * A form's error that belongs to no single field (the server refused, a file could not be read),
 * announced when it appears; nothing when there is none. Field errors stay with their field
 * (LabelledField.tsx).
 */
export function FormError({ text, testId }: { text: string | null | undefined; testId: string }) {
  if (!text) return null;
  return (
    <p className="field-error" role="alert" data-testid={testId}>
      {text}
    </p>
  );
}
