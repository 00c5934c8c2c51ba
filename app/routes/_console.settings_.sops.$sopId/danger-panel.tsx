/** Enable, disable and delete (the slug typed to confirm); admins only. */
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { FormMessage } from "~/ui/form";
import type { loader } from "./route";
import type { SopResult } from "./types";

export function DangerPanel() {
  const { sop, canEdit } = useLoaderData<typeof loader>();
  const result = useActionData<SopResult>();
  if (!canEdit) return null;
  const confirmError = result?.fieldErrors?.confirm;
  return (
    <section className="panel" aria-labelledby="danger">
      <h2 id="danger">Status and deletion</h2>
      {result?.intent === "status" ? <FormMessage message={result.message} tone="success" /> : null}
      <Form method="post">
        <p>{sop.enabled ? "This SOP is enabled." : "This SOP is disabled: its trigger is refused with 409."}</p>
        <button type="submit" name="intent" value={sop.enabled ? "disable" : "enable"} className="secondary">
          {sop.enabled ? "Disable" : "Enable"}
        </button>
      </Form>
      <Form method="post">
        <div className="field">
          <label htmlFor="confirm-delete">{`Type ${sop.slug} to delete this SOP, its trigger and all its runs`}</label>
          <input id="confirm-delete" name="confirm" autoComplete="off" aria-invalid={confirmError ? true : undefined} />
          {confirmError ? (
            <p className="field-error" role="alert">
              {confirmError}
            </p>
          ) : null}
        </div>
        <button type="submit" name="intent" value="delete" className="danger">
          Delete SOP
        </button>
      </Form>
    </section>
  );
}
