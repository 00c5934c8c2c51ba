// /settings/sops/{id} — one SOP: its definition and step editor, its trigger (secret shown once, with signing
// examples; rotate, delete), failed verifications, runs and completion notices. Admins write; everyone reads.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { z } from "zod";
import { type FormResult, type FormValues, parseForm, runForm } from "~/lib/forms.server";
import { invalid, isDomainError } from "~/lib/errors";
import { curlExample, nodeExample } from "~/modules/sops/examples";
import { runsOf } from "~/modules/sops/sop-runs.server";
import { triggersOf, type IssuedSecret } from "~/modules/sops/sop-triggers.server";
import { ROTATE_AFTER_DAYS, parseSopForm, sopsOf, stepsFromForm, type SopsRepo } from "~/modules/sops/sops.server";
import { STEP_TYPES } from "~/modules/sops/steps/registry.server";
import type { StepDescription, StoredStep } from "~/modules/sops/steps/types";
import { requireWorkspace } from "~/modules/tenancy/access.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { FormMessage } from "~/ui/form";
import { ConfirmForm } from "~/ui/confirm-form";
import { Pager } from "~/ui/pager";
import { pageCount, pageOf } from "~/lib/pagination.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.sop.name ?? "SOP"} · SOPs · Atrium` },
];

const RUNS_PER_PAGE = 10;
const DAY = 86_400_000;

/**
 * Another workspace's SOP, or a deleted one, is this page's 404. Remix answers any other thrown value from a
 * loader or action with a 500, so the domain error becomes a 404 response here.
 */
async function sopOr404(sops: SopsRepo, id: string) {
  try {
    return await sops.get(id);
  } catch (error) {
    if (isDomainError(error) && error.kind === "not-found") throw new Response(error.message, { status: 404 });
    throw error;
  }
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { workspace, role } = await requireWorkspace(request, context);
  const { db, secrets } = context.services;
  const sops = sopsOf(db, workspace.id, secrets);
  const triggers = triggersOf(db, workspace.id, secrets);
  const runs = runsOf(db, workspace.id);
  const sop = await sopOr404(sops, params.sopId!);
  const url = new URL(request.url);
  const { page, ...window } = pageOf(request, RUNS_PER_PAGE);
  const canEdit = roleAtLeast(role, "admin");
  const [trigger, failures, runPage, deliveries, callbackSecret] = await Promise.all([
    triggers.ofSop(sop.id),
    triggers.failures(sop.id),
    runs.list(sop.id, window),
    runs.deliveries(sop.id),
    // A secret sealed under another app key does not open: the page says so instead of failing.
    canEdit ? sops.callbackSecret(sop.id).catch(() => "unreadable" as const) : Promise.resolve(null),
  ]);
  const at = Date.now();
  return {
    sop,
    canEdit,
    created: url.searchParams.has("created"),
    trigger: trigger && {
      ...trigger,
      secretAgeDays: Math.floor((at - Date.parse(trigger.secretCreatedAt)) / DAY),
    },
    rotateAfterDays: ROTATE_AFTER_DAYS,
    failures,
    runs: runPage.runs,
    page,
    pages: pageCount(runPage.total, RUNS_PER_PAGE),
    deliveries,
    callbackSecret,
    stepTypes: STEP_TYPES,
    triggerUrl: `${url.origin}/api/sops/${sop.slug}/trigger`,
  };
}

interface Draft {
  name: string;
  slug: string;
  description: string;
  callbackUrl: string;
  steps: StoredStep[];
}

type SopResult = FormResult & { draft?: Draft; issued?: IssuedSecret };

const draftOf = (values: FormValues): Draft => ({
  name: values.name ?? "",
  slug: values.slug ?? "",
  description: values.description ?? "",
  callbackUrl: values.callbackUrl ?? "",
  steps: stepsFromForm(values),
});

/** Add, remove and reorder only change the draft on the page; Save validates and stores it. */
function editDraft(intent: string, values: FormValues): Draft | null {
  const draft = draftOf(values);
  const [verb, index] = intent.split(":");
  const i = Number(index);
  if (verb === "add-step") {
    const type = STEP_TYPES.find((t) => t.type === values.newStepType);
    if (!type) throw invalid("Choose a step type");
    draft.steps.push({ type: type.type });
  } else if (verb === "remove-step" && draft.steps[i]) {
    draft.steps.splice(i, 1);
  } else if (verb === "up-step" && i > 0 && draft.steps[i]) {
    [draft.steps[i - 1], draft.steps[i]] = [draft.steps[i]!, draft.steps[i - 1]!];
  } else {
    return null;
  }
  return draft;
}

const ConfirmDelete = z.object({ confirm: z.string() });

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { workspace, session } = await requireWorkspace(request, context, "admin");
  const { db, secrets } = context.services;
  const sops = sopsOf(db, workspace.id, secrets);
  const triggers = triggersOf(db, workspace.id, secrets);
  const sop = await sopOr404(sops, params.sopId!);
  const actor = { userId: session.user.id, ip: context.request.ip };

  return runForm(
    request,
    context,
    async (values): Promise<SopResult> => {
      const intent = values.intent ?? "";
      const edited = editDraft(intent, values);
      if (edited) return { ok: true, intent: "edit", draft: edited, message: "Unsaved changes: save to keep them." };
      switch (intent) {
        case "save": {
          const { fields, steps } = parseSopForm(values, { requireHttps: context.services.env.production });
          await sops.update(actor, sop.id, fields, steps);
          return { ok: true, intent: "edit", message: "Saved." };
        }
        case "enable":
        case "disable":
          await sops.setEnabled(actor, sop.id, intent === "enable");
          return {
            ok: true,
            intent: "status",
            message: intent === "enable" ? "Enabled: triggers are accepted." : "Disabled: triggers are refused (409).",
          };
        case "delete": {
          if (parseForm(ConfirmDelete, values).confirm.trim() !== sop.slug) {
            throw invalid("Type the SOP's slug to confirm", [
              { field: "confirm", message: `Type ${sop.slug} to confirm` },
            ]);
          }
          await sops.remove(actor, sop.id);
          throw redirect("/settings/sops");
        }
        case "create-trigger": {
          const issued = await triggers.create(actor, sop.id);
          return { ok: true, intent: "trigger", issued };
        }
        case "rotate-trigger": {
          const issued = await triggers.rotate(actor, sop.id, values.triggerId ?? "");
          return { ok: true, intent: "trigger", issued };
        }
        case "delete-trigger":
          await triggers.remove(actor, sop.id, values.triggerId ?? "");
          return {
            ok: true,
            intent: "trigger",
            message: "Trigger deleted: signed requests are refused until you create another.",
          };
        default:
          throw invalid("Unknown action");
      }
    },
    // A refused save shows the editor again with what was typed, not what is stored.
    (values) => (values.intent === "save" ? { intent: "edit", draft: draftOf(values) } : {}),
  );
}

function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="secondary"
      aria-label={label}
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(() => setCopied(true));
      }}
    >
      {copied ? "Copied" : "Copy"}
    </button>
  );
}

function NewSecret({ issued, triggerUrl }: { issued: IssuedSecret; triggerUrl: string }) {
  const values = { url: triggerUrl, secret: issued.secret };
  return (
    <section className="panel new-key" aria-labelledby="new-secret">
      <h2 id="new-secret">Your trigger secret</h2>
      <p>
        <strong>Copy it now: it will not be shown again.</strong> Any earlier secret of this trigger stopped working at
        once.
      </p>
      <p className="key-line">
        <code data-testid="trigger-secret">{issued.secret}</code>
        <CopyButton value={issued.secret} label="Copy the secret" />
      </p>
      <h3>Sign a request with curl and openssl</h3>
      <pre>
        <code data-testid="curl-example">{curlExample(values)}</code>
      </pre>
      <h3>Or with Node</h3>
      <pre>
        <code>{nodeExample(values)}</code>
      </pre>
    </section>
  );
}

function StepFields({
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

function Definition() {
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

function TriggerPanel() {
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

const json = (value: unknown) => JSON.stringify(value, null, 2);

function Runs() {
  const { runs, page, pages } = useLoaderData<typeof loader>();
  return (
    <section className="panel" aria-labelledby="runs">
      <h2 id="runs">Runs</h2>
      {runs.length === 0 ? (
        <p className="empty">No runs yet. A verified trigger queues one.</p>
      ) : (
        <ul className="runs">
          {runs.map((run) => (
            <li key={run.id} data-run-id={run.id} data-status={run.status}>
              <details>
                <summary>
                  <span className={`status status-${run.status}`}>{run.status}</span>
                  {` ${run.createdAt.slice(0, 19).replace("T", " ")} · ${run.steps.length} step results`}
                  {run.durationMs !== null ? ` · ${run.durationMs} ms` : ""}
                  {run.attempts > 1 ? ` · attempt ${run.attempts}` : ""}
                </summary>
                <p>
                  Run <code>{run.id}</code>
                </p>
                {run.error ? <p className="field-error">{run.error}</p> : null}
                <h3>Input</h3>
                <pre>
                  <code>{json(run.input)}</code>
                </pre>
                <h3>Steps</h3>
                <ol>
                  {run.steps.map((s) => (
                    <li key={s.index}>
                      {`${s.name} (${s.type}): ${s.status}`}
                      {s.error ? <p className="field-error">{s.error}</p> : null}
                      {s.output !== null ? (
                        <pre>
                          <code>{json(s.output)}</code>
                        </pre>
                      ) : null}
                    </li>
                  ))}
                </ol>
              </details>
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} pages={pages} label="Pages of runs" />
    </section>
  );
}

function Notices() {
  const { sop, deliveries, callbackSecret } = useLoaderData<typeof loader>();
  if (!sop.callbackUrl && deliveries.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="notices">
      <h2 id="notices">Completion notices</h2>
      <p>
        {"Each finished run is posted to the callback URL as "}
        <code>sop.run.succeeded</code>
        {" or "}
        <code>sop.run.failed</code>
        {", signed in the Standard Webhooks format (webhook-id, webhook-timestamp, webhook-signature)."}
      </p>
      {callbackSecret === "unreadable" ? (
        <p className="field-error">
          The signing secret cannot be read with this server&apos;s app key (APP_KEY or its key file changed). Restore
          the key, or clear the callback URL, save, and set it again to get a new secret.
        </p>
      ) : callbackSecret ? (
        <details>
          <summary>Show the signing secret</summary>
          <p className="key-line">
            <code>{callbackSecret}</code>
            <CopyButton value={callbackSecret} label="Copy the signing secret" />
          </p>
        </details>
      ) : null}
      {deliveries.length === 0 ? (
        <p className="empty">No notices sent yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Response</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <tr key={d.id} data-delivery-status={d.status}>
                <td>
                  <code>{d.eventType}</code>
                  <div className="hint">{d.id}</div>
                </td>
                <td>{d.status}</td>
                <td>{d.attempts}</td>
                <td>{d.responseStatus ?? d.lastError ?? "—"}</td>
                <td>{d.createdAt.slice(0, 19).replace("T", " ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Danger() {
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

export default function Sop() {
  const { sop, created, triggerUrl } = useLoaderData<typeof loader>();
  const result = useActionData<SopResult>();
  return (
    <>
      <p>
        <Link to="/settings/sops">All SOPs</Link>
      </p>
      <h1>{sop.name}</h1>
      <p>
        <code>{sop.slug}</code>
        {` · ${sop.enabled ? "Enabled" : "Disabled"}`}
        {sop.description ? ` · ${sop.description}` : ""}
      </p>
      {created && !result ? (
        <FormMessage message="SOP created. Add its steps, then create a trigger." tone="success" />
      ) : null}
      {result?.issued ? <NewSecret issued={result.issued} triggerUrl={triggerUrl} /> : null}
      {result && !result.ok && !["edit"].includes(result.intent ?? "") && !result.fieldErrors?.confirm ? (
        <FormMessage message={result.message} />
      ) : null}
      <TriggerPanel />
      <Definition />
      <Runs />
      <Notices />
      <Danger />
    </>
  );
}
