/** The trigger: URL, secret age, last use, failed verifications; create, rotate and delete. */
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ConfirmForm } from "~/ui/confirm-form";
import { FormMessage } from "~/ui/form";
import type { loader } from "./route";
import type { SopResult } from "./types";

export function TriggerPanel() {
  const { trigger, canEdit, triggerUrl, failures, rotateAfterDays } = useLoaderData<typeof loader>();
  const result = useActionData<SopResult>();
  const latest = failures.latest.filter((f) => !trigger || f.triggerId === trigger.id).slice(0, 5);
  const count = failures.counts.find((c) => c.triggerId === (trigger?.id ?? null))?.count ?? 0;
  return (
    <section className="panel" aria-labelledby="trigger">
      <h2 id="trigger">Trigger</h2>
      {result?.intent === "trigger" && result.message ? <FormMessage message={result.message} tone="success" /> : null}
      {!trigger ? (
        <>
          <p className="empty">No trigger: signed requests to this SOP are refused.</p>
          {canEdit ? (
            <Form method="post">
              <button type="submit" name="intent" value="create-trigger">
                Create trigger
              </button>
            </Form>
          ) : null}
        </>
      ) : (
        <>
          <dl className="facts">
            <dt>Trigger URL</dt>
            <dd>
              <code>{`POST ${triggerUrl}`}</code>
            </dd>
            <dt>Trigger id</dt>
            <dd>
              <code>{trigger.id}</code>
            </dd>
            <dt>Secret age</dt>
            <dd data-testid="secret-age">
              {`${trigger.secretAgeDays} days (since ${trigger.secretCreatedAt.slice(0, 10)})`}
              {trigger.secretAgeDays >= rotateAfterDays ? (
                <strong className="warning">{` — older than ${rotateAfterDays} days: rotate it.`}</strong>
              ) : null}
            </dd>
            <dt>Last accepted request</dt>
            <dd>{trigger.lastUsedAt ? trigger.lastUsedAt.slice(0, 19).replace("T", " ") : "Never"}</dd>
            <dt>Failed verifications</dt>
            <dd data-testid="failure-count">{count}</dd>
          </dl>
          {latest.length ? (
            <>
              <h3>Latest failed verifications</h3>
              <table>
                <thead>
                  <tr>
                    <th scope="col">When (UTC)</th>
                    <th scope="col">Reason</th>
                    <th scope="col">Client address</th>
                  </tr>
                </thead>
                <tbody>
                  {latest.map((f, i) => (
                    <tr key={i}>
                      <td>{f.at.slice(0, 19).replace("T", " ")}</td>
                      <td>{f.reason}</td>
                      <td>{f.ip ?? "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          ) : null}
          {canEdit ? (
            <div className="key-actions">
              <ConfirmForm
                confirm="Rotate the secret? The current one stops working at once."
                fields={{ triggerId: trigger.id }}
              >
                <button type="submit" name="intent" value="rotate-trigger">
                  Rotate secret
                </button>
              </ConfirmForm>
              <ConfirmForm
                confirm="Delete the trigger? Signed requests are refused until you create another."
                fields={{ triggerId: trigger.id }}
              >
                <button type="submit" name="intent" value="delete-trigger" className="danger">
                  Delete trigger
                </button>
              </ConfirmForm>
            </div>
          ) : null}
        </>
      )}
      {failures.counts.some((c) => c.triggerId !== (trigger?.id ?? null)) ? (
        <p className="hint">
          {`Earlier triggers: ${failures.counts
            .filter((c) => c.triggerId !== (trigger?.id ?? null))
            .map((c) => `${c.triggerId ?? "none"}: ${c.count} failures`)
            .join("; ")}`}
        </p>
      ) : null}
    </section>
  );
}
