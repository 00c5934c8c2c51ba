/** The fields of one block in the editor, named by their path in the draft (`blocks.2.heading`). */
import type { MediaChoice } from "~/modules/sites/pages.server";
import { DescribedField } from "~/ui/form";

type Errors = Record<string, string>;

interface Props {
  block: Record<string, unknown>;
  index: number;
  errors: Errors;
  disabled: boolean;
  media: MediaChoice[];
}

const str = (v: unknown) => (typeof v === "string" ? v : "");

export function BlockFields({ block, index, errors, disabled, media }: Props) {
  const name = (field: string) => `blocks.${index}.${field}`;
  const id = (field: string) => `block-${index}-${field.replace(/\./g, "-")}`;
  const input = (field: string, label: string, hint?: string, type = "text") => (
    <DescribedField id={id(field)} label={label} error={errors[name(field)]} hint={hint}>
      {(describedBy) => (
        <input
          id={id(field)}
          name={name(field)}
          type={type}
          defaultValue={str(block[field])}
          disabled={disabled}
          aria-invalid={errors[name(field)] ? true : undefined}
          aria-describedby={describedBy}
        />
      )}
    </DescribedField>
  );
  const textarea = (field: string, label: string, rows: number, hint?: string, markdown = false) => (
    <DescribedField id={id(field)} label={label} error={errors[name(field)]} hint={hint}>
      {(describedBy) => (
        <textarea
          id={id(field)}
          name={name(field)}
          rows={rows}
          className={markdown ? "markdown" : undefined}
          defaultValue={str(block[field])}
          disabled={disabled}
          aria-invalid={errors[name(field)] ? true : undefined}
          aria-describedby={describedBy}
        />
      )}
    </DescribedField>
  );
  const imageSelect = (field: string, label: string, optional: boolean) => (
    <DescribedField
      id={id(field)}
      label={label}
      error={errors[name(field)]}
      hint={media.length === 0 ? "Your media library is empty: upload images under Website → Media first." : undefined}
    >
      {(describedBy) => (
        <select
          id={id(field)}
          name={name(field)}
          defaultValue={str(block[field])}
          disabled={disabled}
          aria-invalid={errors[name(field)] ? true : undefined}
          aria-describedby={describedBy}
        >
          <option value="">{optional ? "No image" : "Choose an image…"}</option>
          {media.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
        </select>
      )}
    </DescribedField>
  );
  const markdownHint = "Markdown: **bold**, *italic*, ## heading, - list item, [link text](https://…).";

  switch (block.type) {
    case "hero":
      return (
        <>
          {input("heading", "Heading")}
          {textarea("text", "Text", 2, "One or two sentences under the heading.")}
          {imageSelect("imageId", "Image", true)}
          <div className="two-fields">
            {input("ctaLabel", "Button label", "Optional, e.g. “See the menu”.")}
            {input("ctaHref", "Button link", "A path on your site (/…) or a web address.")}
          </div>
        </>
      );
    case "richText":
      return textarea("markdown", "Text", 10, markdownHint, true);
    case "image":
      return (
        <>
          {imageSelect("imageId", "Image", false)}
          {input("caption", "Caption (optional)")}
        </>
      );
    case "gallery": {
      const chosen = Array.isArray(block.imageIds) ? (block.imageIds as string[]) : [];
      const error = errors[name("imageIds")];
      return (
        <fieldset className="plain" aria-describedby={error ? id("imageIds-error") : undefined}>
          <legend className="field-legend">Images</legend>
          <input type="hidden" name={name("order")} value={chosen.join(",")} />
          {media.length === 0 ? (
            <p className="hint">Your media library is empty: upload images under Website → Media first.</p>
          ) : (
            <ul className="image-choices">
              {media.map((m) => (
                <li key={m.id}>
                  <label>
                    <img src={m.thumb} alt="" loading="lazy" width={120} height={120} />
                    <span>
                      <input
                        type="checkbox"
                        name={name(`imageIds.${m.id}`)}
                        defaultChecked={chosen.includes(m.id)}
                        disabled={disabled}
                      />{" "}
                      {m.label}
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          )}
          {error ? (
            <p className="field-error" id={id("imageIds-error")} role="alert">
              {error}
            </p>
          ) : null}
        </fieldset>
      );
    }
    case "cta":
      return (
        <>
          {input("heading", "Heading")}
          {textarea("text", "Text (optional)", 2)}
          <div className="two-fields">
            {input("label", "Button label")}
            {input("href", "Button link", "A path on your site (/…), a web address, mailto: or tel:.")}
          </div>
        </>
      );
    case "faq": {
      const items = Array.isArray(block.items) ? (block.items as { question?: string; answer?: string }[]) : [];
      // One empty question to fill in, always: adding a question needs no button (and no JavaScript).
      const shown = disabled ? items : [...items, { question: "", answer: "" }];
      const itemsError = errors[name("items")];
      return (
        <>
          {input("heading", "Heading (optional)")}
          {shown.map((item, j) => (
            <div className="faq-item" key={j}>
              {(() => {
                const q = `items.${j}.question`;
                const a = `items.${j}.answer`;
                const blank = j === items.length;
                return (
                  <>
                    <DescribedField
                      id={id(q)}
                      label={blank ? "New question" : `Question ${j + 1}`}
                      error={errors[name(q)]}
                      hint={blank ? "Fill it in to add a question; leave both empty to add none." : undefined}
                    >
                      {(describedBy) => (
                        <input
                          id={id(q)}
                          name={name(q)}
                          defaultValue={item.question ?? ""}
                          disabled={disabled}
                          aria-invalid={errors[name(q)] ? true : undefined}
                          aria-describedby={describedBy}
                        />
                      )}
                    </DescribedField>
                    <DescribedField
                      id={id(a)}
                      label={blank ? "Its answer" : `Answer ${j + 1}`}
                      error={errors[name(a)]}
                      hint={blank ? undefined : "Markdown. Empty both fields to remove this question."}
                    >
                      {(describedBy) => (
                        <textarea
                          id={id(a)}
                          name={name(a)}
                          rows={3}
                          defaultValue={item.answer ?? ""}
                          disabled={disabled}
                          aria-invalid={errors[name(a)] ? true : undefined}
                          aria-describedby={describedBy}
                        />
                      )}
                    </DescribedField>
                  </>
                );
              })()}
            </div>
          ))}
          {itemsError ? (
            <p className="field-error" role="alert">
              {itemsError}
            </p>
          ) : null}
        </>
      );
    }
    case "contactForm":
      return (
        <>
          {input("heading", "Heading (optional)")}
          {textarea("intro", "Introduction (optional)", 2)}
          <p className="hint">Visitors&apos; messages arrive in your Inbox.</p>
        </>
      );
    default:
      return <p className="hint">This block type is not known to the editor.</p>;
  }
}
