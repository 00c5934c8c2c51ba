/** One step's inputs in the editor: its name and the fields its type declares, with their errors. */
import type { StepDescription, StoredStep } from "~/modules/sops/steps/types";

export function StepFields({
  step,
  index,
  description,
  errors,
  disabled,
}: {
  step: StoredStep;
  index: number;
  description: StepDescription | undefined;
  errors: Record<string, string>;
  disabled: boolean;
}) {
  const id = (field: string) => `step-${index}-${field}`;
  const error = (field: string) => errors[`step.${index}.${field}`];
  const errorLine = (field: string) =>
    error(field) ? (
      <p className="field-error" id={`${id(field)}-error`} role="alert">
        {error(field)}
      </p>
    ) : null;
  return (
    <>
      <input type="hidden" name={`step.${index}.type`} value={step.type} />
      {errorLine("type")}
      <div className="field">
        <label htmlFor={id("name")}>Name (optional)</label>
        <input
          id={id("name")}
          name={`step.${index}.name`}
          defaultValue={step.name ?? ""}
          disabled={disabled}
          aria-invalid={error("name") ? true : undefined}
          aria-describedby={[`${id("name")}-hint`, error("name") ? `${id("name")}-error` : ""]
            .filter(Boolean)
            .join(" ")}
        />
        <p className="hint" id={`${id("name")}-hint`}>
          {`Later steps read its output as steps.${step.name || `step${index + 1}`}`}
        </p>
        {errorLine("name")}
      </div>
      {description?.fields.map((field) => {
        const common = {
          id: id(field.name),
          name: `step.${index}.${field.name}`,
          defaultValue: step[field.name] ?? field.options?.[0] ?? "",
          disabled,
          "aria-invalid": error(field.name) ? true : undefined,
          "aria-describedby":
            [field.hint ? `${id(field.name)}-hint` : "", error(field.name) ? `${id(field.name)}-error` : ""]
              .filter(Boolean)
              .join(" ") || undefined,
        };
        return (
          <div className="field" key={field.name}>
            <label htmlFor={common.id}>{field.label}</label>
            {field.kind === "select" ? (
              <select {...common}>
                {field.options?.map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </select>
            ) : field.kind === "text" || field.kind === "expression" ? (
              <input {...common} placeholder={field.placeholder} spellCheck={false} />
            ) : (
              <textarea {...common} rows={3} placeholder={field.placeholder} spellCheck={false} />
            )}
            {field.hint ? (
              <p className="hint" id={`${id(field.name)}-hint`}>
                {field.hint}
              </p>
            ) : null}
            {errorLine(field.name)}
          </div>
        );
      })}
    </>
  );
}
