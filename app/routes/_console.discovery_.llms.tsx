// /discovery/llms — llms.txt: whether the site publishes /{site}/llms.txt (llmstxt.org: a Markdown summary of
// the site for AI assistants), the summary at its top, a preview of the file as it is now and a link to it.
// Every member sees; editors change (ADR 021).
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { type FormResult, parseForm, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { checked, consoleDiscovery } from "~/modules/discovery/console.server";
import { llmsTxt } from "~/modules/discovery/public.server";
import { LLMS_SUMMARY_MAX, LlmsInput } from "~/modules/discovery/rules";
import { DescribedField, FormMessage } from "~/ui/form";
import { DISCOVERY_TABS, SectionTabs } from "~/ui/section-tabs";
import discoveryCss from "~/styles/console-discovery.css?url";

export const meta: MetaFunction = () => [{ title: "llms.txt · Discovery · Atrium" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: discoveryCss }];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, canEdit, discovery, address, url } = await consoleDiscovery(request, context);
  const settings = await discovery.settings();
  return {
    canEdit,
    enabled: settings.llms.enabled,
    summary: settings.llms.summary,
    fileUrl: url("/llms.txt"),
    preview: await llmsTxt(context.services.db, workspace, address, settings.llms.summary),
  };
});

const LlmsForm = LlmsInput.extend({ enabled: z.string().optional().transform(checked) });

type LlmsResult = FormResult & { draft?: { summary: string; enabled: boolean } };

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { discovery, actor } = await consoleDiscovery(request, context, "editor");
  return runForm(
    request,
    context,
    async (values): Promise<LlmsResult> => {
      const saved = await discovery.saveLlms(actor, parseForm(LlmsForm, values));
      return {
        ok: true,
        message: saved.llms.enabled
          ? "Saved: your site publishes llms.txt."
          : "Saved: your site publishes no llms.txt.",
      };
    },
    (values) => ({ draft: { summary: values.summary ?? "", enabled: checked(values.enabled) } }),
  );
});

export default function LlmsSettings() {
  const { canEdit, enabled, summary, fileUrl, preview } = useLoaderData<typeof loader>();
  const result = useActionData<LlmsResult>();
  const draft = result?.draft;
  const error = result?.fieldErrors?.summary;
  return (
    <>
      <h1>Discovery</h1>
      <SectionTabs label="Discovery" tabs={DISCOVERY_TABS} />
      <p className="discovery-intro">
        llms.txt is a short Markdown file that tells AI assistants what your site is about and which pages matter,
        following the <a href="https://llmstxt.org/">llmstxt.org</a> proposal. It lists your published pages (not those
        hidden from search engines) and, as optional reading, your policies.
      </p>
      {!canEdit ? (
        <p className="form-message error" role="note">
          You have viewer access: you can see these settings but not change them.
        </p>
      ) : null}
      <FormMessage message={result?.message} tone={result?.ok ? "success" : "error"} />

      <section className="panel" aria-labelledby="llms-settings">
        <h2 id="llms-settings">
          llms.txt {enabled ? <span className="tag ok">Published</span> : <span className="tag">Off</span>}
        </h2>
        <Form method="post">
          <fieldset disabled={!canEdit} className="plain">
            <div className="check-field">
              <input
                id="field-enabled"
                type="checkbox"
                name="enabled"
                defaultChecked={draft ? draft.enabled : enabled}
              />
              <div>
                <label htmlFor="field-enabled">Publish llms.txt</label>
                <p className="hint">
                  At <code>{fileUrl}</code>. Off, that address answers “not found”.
                </p>
              </div>
            </div>
            <DescribedField
              id="field-summary"
              label="Summary"
              error={error}
              hint={`One or two sentences on who you are and what you offer, shown at the top of the file. Up to ${LLMS_SUMMARY_MAX.toLocaleString("en")} characters.`}
            >
              {(describedBy) => (
                <textarea
                  id="field-summary"
                  name="summary"
                  defaultValue={draft ? draft.summary : summary}
                  maxLength={LLMS_SUMMARY_MAX}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={describedBy}
                />
              )}
            </DescribedField>
            <div className="form-actions">
              <button type="submit">Save</button>
            </div>
          </fieldset>
        </Form>
      </section>

      <section className="panel" aria-labelledby="llms-preview">
        <h2 id="llms-preview">Preview</h2>
        <p>
          {enabled ? (
            <>
              Live at <a href={fileUrl}>{fileUrl}</a>.
            </>
          ) : (
            "What the file will say once published:"
          )}
        </p>
        <pre className="llms-preview" tabIndex={0} aria-label="llms.txt preview">
          {preview}
        </pre>
      </section>
    </>
  );
}
