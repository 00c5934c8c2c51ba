import type { ReactNode } from "react";

export interface FieldProps {
  label: string;
  name: string;
  type?: string;
  defaultValue?: string;
  error?: string;
  hint?: ReactNode;
  autoComplete?: string;
  required?: boolean;
  disabled?: boolean;
  prefix?: string;
}

/**
 * A label, the control `children` renders (given the ids its `aria-describedby` names), a hint and the field's
 * server-side error next to it, announced to assistive technology. `Field` is this around an input; pages
 * with selects, textareas or pickers use it directly.
 */
export function DescribedField({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  children: (describedBy: string | undefined) => ReactNode;
}) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(describedBy)}
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled input whose server-side error sits next to it and is announced to assistive technology. */
export function Field({
  label,
  name,
  type = "text",
  defaultValue,
  error,
  hint,
  autoComplete,
  required,
  disabled,
  prefix,
}: FieldProps) {
  const id = `field-${name}`;
  return (
    <DescribedField id={id} label={label} error={error} hint={hint}>
      {(describedBy) => (
        <div className={prefix ? "input-with-prefix" : undefined}>
          {prefix ? <span className="input-prefix">{prefix}</span> : null}
          <input
            id={id}
            name={name}
            type={type}
            defaultValue={defaultValue}
            autoComplete={autoComplete}
            required={required}
            disabled={disabled}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
          />
        </div>
      )}
    </DescribedField>
  );
}

export function FormMessage({ message, tone = "error" }: { message?: string; tone?: "error" | "success" }) {
  if (!message) return null;
  return (
    <p className={`form-message ${tone}`} role={tone === "error" ? "alert" : "status"}>
      {message}
    </p>
  );
}
