/** The SOP's definition and step editor; a refused save shows the draft as typed. */
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { FormMessage } from "~/ui/form";
import type { loader } from "./route";
import { StepFields } from "./step-fields";
import type { Draft, SopResult } from "./types";

export function DefinitionPanel() {
  const { sop, canEdit, stepTypes } = useLoaderData<typeof loader>();
  const result = useActionData<SopResult>();
  const editing = result?.intent === "edit" ? result : undefined;
  const draft: Draft = editing?.draft ?? {
    name: sop.name,
    slug: sop.slug,
    description: sop.description,
    callbackUrl: sop.callbackUrl ?? "",
    steps: sop.steps,
  };
  const errors = editing?.fieldErrors ?? {};
  const disabled = !canEdit;
  const field = (name: keyof Draft, label: string, hint?: string) => (
    <div className="field">
      <label htmlFor={`sop-${name}`}>{label}</label>
      <input
        id={`sop-${name}`}
        name={name}
        defaultValue={draft[name] as string}
        disabled={disabled}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={hint ? `sop-${name}-hint` : undefined}
      />
      {hint ? (
        <p className="hint" id={`sop-${name}-hint`}>
          {hint}
        </p>
      ) : null}
      {errors[name] ? (
        <p className="field-error" role="alert">
          {errors[name]}
        </p>
      ) : null}
    </div>
  );
  // A fresh key per draft makes React replace the inputs, so their default values follow the draft.
  const formKey = JSON.stringify(draft);
  return (
    <section className="panel" aria-labelledby="definition">
      <h2 id="definition">Definition</h2>
      <Form method="post" key={formKey}>
        {canEdit ? (
          // First in the form, so Enter in any field saves rather than pressing "Remove step 1".
          <button type="submit" name="intent" value="save" className="visually-hidden" tabIndex={-1} aria-hidden="true">
            Save SOP
          </button>
        ) : null}
        {field("name", "Name")}
        {field("slug", "Slug", "Changing it changes the trigger URL.")}
        {field("description", "Description")}
        {field(
          "callbackUrl",
          "Completion callback URL (optional)",
          "When a run finishes, a signed notice (Standard Webhooks) is posted here.",
        )}
        <h3>Steps</h3>
        <p className="hint">
          {"Fields accept templates such as {{input.email}}; conditions and values are expressions such as "}
          <code>{'input.total > 100 && input.country == "NL"'}</code>
          {". Steps run in order; a condition that does not hold ends the run."}
        </p>
        {draft.steps.length === 0 ? <p className="empty">No steps yet: add one below.</p> : null}
        <ol className="steps">
          {draft.steps.map((step, index) => {
            const description = stepTypes.find((t) => t.type === step.type);
            return (
              <li key={index}>
                <fieldset>
                  <legend>{`Step ${index + 1}: ${description?.label ?? step.type}`}</legend>
                  <p className="hint">{description?.description}</p>
                  <StepFields step={step} index={index} description={description} errors={errors} disabled={disabled} />
                  {canEdit ? (
                    <div className="key-actions">
                      {index > 0 ? (
                        <button type="submit" name="intent" value={`up-step:${index}`} className="secondary">
                          Move up
                        </button>
                      ) : null}
                      <button type="submit" name="intent" value={`remove-step:${index}`} className="secondary">
                        {`Remove step ${index + 1}`}
                      </button>
                    </div>
                  ) : null}
                </fieldset>
              </li>
            );
          })}
        </ol>
        {canEdit ? (
          <>
            <div className="field add-step">
              <label htmlFor="new-step-type">New step</label>
              <select id="new-step-type" name="newStepType" defaultValue="http_request">
                {stepTypes.map((t) => (
                  <option key={t.type} value={t.type}>
                    {t.label}
                  </option>
                ))}
              </select>
              <button type="submit" name="intent" value="add-step" className="secondary">
                Add step
              </button>
            </div>
            {editing?.message ? (
              <FormMessage message={editing.message} tone={editing.ok ? "success" : "error"} />
            ) : null}
            <button type="submit" name="intent" value="save">
              Save SOP
            </button>
          </>
        ) : null}
      </Form>
    </section>
  );
}
