/** The draft: the page's settings and its blocks, in one form; a refused save shows the draft as typed. */
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { FormMessage } from "~/ui/form";
import { BlockFields } from "./block-fields";
import type { loader } from "./route";
import type { EditorResult } from "./types";

export function DraftEditor() {
  const { site, page, draft: stored, media, blockTypes, canEdit } = useLoaderData<typeof loader>();
  const result = useActionData<EditorResult>();
  const editing = result?.intent === "draft" ? result : undefined;
  const draft = editing?.draft ?? stored;
  const errors = editing?.fieldErrors ?? {};
  const disabled = !canEdit;
  const labelOf = (type: unknown) => blockTypes.find((t) => t.type === type)?.label ?? String(type);
  // A fresh key per draft makes React replace the inputs, so their default values follow the draft.
  const formKey = JSON.stringify(draft);
  const fieldError = (name: string) =>
    errors[name] ? (
      <p className="field-error" id={`page-${name}-error`} role="alert">
        {errors[name]}
      </p>
    ) : null;
  return (
    <Form method="post" key={formKey} className="draft-form">
      {canEdit ? (
        // First in the form, so Enter in any field saves rather than pressing "Move up".
        <button type="submit" name="intent" value="save" className="visually-hidden" tabIndex={-1} aria-hidden="true">
          Save draft
        </button>
      ) : null}
      <section className="panel" aria-labelledby="page-settings">
        <h2 id="page-settings">Page</h2>
        <div className="field">
          <label htmlFor="page-title">Title</label>
          <input
            id="page-title"
            name="title"
            defaultValue={draft.title}
            disabled={disabled}
            aria-invalid={errors.title ? true : undefined}
            aria-describedby={errors.title ? "page-title-error" : undefined}
          />
          {fieldError("title")}
        </div>
        <div className="field">
          <label htmlFor="page-slug">Address</label>
          <div className="input-with-prefix">
            <span className="input-prefix">{`/${site.slug}/`}</span>
            <input
              id="page-slug"
              name="slug"
              defaultValue={draft.slug}
              disabled={disabled}
              aria-invalid={errors.slug ? true : undefined}
              aria-describedby={`page-slug-hint${errors.slug ? " page-slug-error" : ""}`}
            />
          </div>
          <p className="hint" id="page-slug-hint">
            {page.isHome
              ? `This is your home page: visitors reach it at /${site.slug}.`
              : "Lowercase letters, digits and hyphens. Changing it changes the page's address when you save."}
          </p>
          {fieldError("slug")}
        </div>
        <div className="field">
          <label htmlFor="page-description">Description</label>
          <textarea
            id="page-description"
            name="description"
            rows={2}
            defaultValue={draft.description}
            disabled={disabled}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={`page-description-hint${errors.description ? " page-description-error" : ""}`}
          />
          <p className="hint" id="page-description-hint">
            For search engines and link previews; one or two sentences.
          </p>
          {fieldError("description")}
        </div>
      </section>

      <section className="panel" aria-labelledby="page-blocks">
        <h2 id="page-blocks">Content</h2>
        {draft.blocks.length === 0 ? (
          <p className="empty">
            This page has no blocks yet. Add a hero to open it, then text, images or a contact form below.
          </p>
        ) : null}
        {errors.blocks ? <FormMessage message={errors.blocks} /> : null}
        <ol className="block-list">
          {draft.blocks.map((block, index) => (
            <li key={index}>
              <fieldset className="block-card" data-block-type={String(block.type)}>
                <legend>{`${index + 1}. ${labelOf(block.type)}`}</legend>
                <input type="hidden" name={`blocks.${index}.type`} value={String(block.type)} />
                <div className="block-body">
                  <BlockFields block={block} index={index} errors={errors} disabled={disabled} media={media} />
                </div>
                {canEdit ? (
                  <div className="block-tools">
                    {index > 0 ? (
                      <button type="submit" name="intent" value={`up:${index}`} className="secondary">
                        <span aria-hidden="true">↑ </span>Move up
                        <span className="visually-hidden">{` block ${index + 1}`}</span>
                      </button>
                    ) : null}
                    {index < draft.blocks.length - 1 ? (
                      <button type="submit" name="intent" value={`down:${index}`} className="secondary">
                        <span aria-hidden="true">↓ </span>Move down
                        <span className="visually-hidden">{` block ${index + 1}`}</span>
                      </button>
                    ) : null}
                    <button type="submit" name="intent" value={`remove:${index}`} className="secondary">
                      Remove<span className="visually-hidden">{` block ${index + 1}`}</span>
                    </button>
                  </div>
                ) : null}
              </fieldset>
            </li>
          ))}
        </ol>
        {canEdit ? (
          <div className="add-block">
            <div className="field">
              <label htmlFor="new-block-type">Add a block</label>
              <select id="new-block-type" name="newBlockType" defaultValue={draft.blocks.length ? "richText" : "hero"}>
                {blockTypes.map((t) => (
                  <option key={t.type} value={t.type}>
                    {`${t.label} — ${t.description}`}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" name="intent" value="add-block" className="secondary">
              Add block
            </button>
          </div>
        ) : null}
      </section>

      {canEdit ? (
        <div className="save-bar">
          {editing?.message ? (
            <FormMessage
              // The field's own message sits beside it; here, only what to do.
              message={Object.keys(errors).length ? "Not saved: fix the highlighted fields above." : editing.message}
              tone={editing.ok ? "success" : "error"}
            />
          ) : null}
          <button type="submit" name="intent" value="save">
            Save draft
          </button>
          <button type="submit" name="intent" value="publish" className="secondary">
            {page.status === "published" ? "Save and publish" : "Publish"}
          </button>
          <button
            type="submit"
            name="intent"
            value="preview"
            className="secondary"
            formAction={`/website/pages/${page.id}/preview`}
            formTarget="_blank"
          >
            Preview<span className="visually-hidden"> (opens in a new tab)</span>
          </button>
        </div>
      ) : (
        <p className="hint">You can read this page; an editor of the workspace can change it.</p>
      )}
    </Form>
  );
}
