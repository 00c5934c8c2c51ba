// /website/branding — "Branding": logo, favicon and social image (from the media library), colours with a
// WCAG contrast check, fonts and corners, a live preview, and the import from the business's current website.
// Admins only (the contract's role for branding). Works without JavaScript: "Preview" posts the form and
// shows the result unsaved; with JavaScript the preview and the contrast report follow every change.
import { slugBase } from "~/lib/link-base";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useMemo, useState, type FormEvent } from "react";
import { invalid } from "~/lib/errors";
import { type FormResult, type FormValues, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { filesOf } from "~/modules/files/files.server";
import { mediaSrc } from "~/modules/files/media.server";
import { brandImportOf, type BrandImportState } from "~/modules/sites/brand-import.server";
import { brandingOf } from "~/modules/sites/branding.server";
import {
  CORNER_STYLES,
  FAVICON_TYPES,
  LOGO_TYPES,
  SOCIAL_IMAGE_TYPES,
  type CornerStyle,
} from "~/modules/sites/branding-options";
import { formatRatio, normalizeHex } from "~/modules/sites/contrast";
import { FONT_KEYS, FONTS, type FontKey } from "~/modules/sites/fonts";
import { contrastChecks, type BrandColors } from "~/modules/sites/palette";
import { FormMessage } from "~/ui/form";
import previewStyles from "~/styles/branding-preview.css?url";

export const meta: MetaFunction = () => [{ title: "Branding · Atrium" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: previewStyles }];

/** The most recent images offered in the pickers; the media library holds the rest. */
const PICKER_SIZE = 200;

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context, "admin");
  const brand = brandingOf(context.services.db, workspace.id);
  const [branding, library, importState] = await Promise.all([
    brand.get(),
    filesOf(context.services, workspace.id).list({ size: PICKER_SIZE, offset: 0 }),
    brandImportOf(context.services, workspace.id).state(),
  ]);
  const images = library.items.map((item) => ({
    id: item.id,
    name: item.alt ? `${item.filename} — ${item.alt}` : item.filename,
    contentType: item.contentType,
    src: mediaSrc(slugBase(workspace.slug), item, 320),
    wide: !!item.width && !!item.height && item.width / item.height >= 2.2,
  }));
  return {
    site: { name: workspace.name, slug: workspace.slug },
    branding,
    images,
    moreImages: library.total > images.length,
    importState,
  };
});

type BrandingResult = FormResult & { preview?: FormValues; importState?: BrandImportState };

function brandingFromForm(values: FormValues) {
  return {
    logoId: values.logoId,
    faviconId: values.faviconId,
    socialImageId: values.socialImageId,
    colors: { brand: values.brand, accent: values.accent, background: values.background, text: values.text },
    headingFont: values.headingFont,
    bodyFont: values.bodyFont,
    corners: values.corners,
  };
}

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { workspace, session } = await requireWorkspace(request, context, "admin");
  return runForm(
    request,
    context,
    async (values): Promise<BrandingResult> => {
      switch (values.intent) {
        case "save":
          await brandingOf(context.services.db, workspace.id).save(session.user.id, brandingFromForm(values));
          return { ok: true, intent: "save", message: "Branding saved. Your site shows it from the next visit." };
        case "preview":
          return { ok: true, intent: "preview", preview: values, message: "Preview updated. Nothing is saved yet." };
        case "import": {
          const importState = await brandImportOf(context.services, workspace.id).start(session.user.id, {
            url: values.url,
          });
          return { ok: true, intent: "import", importState, message: "Import started." };
        }
        default:
          throw invalid("Unknown action");
      }
    },
    (values) => ({ preview: values.intent === "save" ? values : undefined }),
  );
});

type Draft = {
  logoId: string;
  faviconId: string;
  socialImageId: string;
  brand: string;
  accent: string;
  background: string;
  text: string;
  headingFont: FontKey;
  bodyFont: FontKey;
  corners: CornerStyle;
};

function previewHref(d: Draft): string {
  const q = new URLSearchParams({
    brand: d.brand,
    accent: d.accent,
    background: d.background,
    text: d.text,
    headingFont: d.headingFont,
    bodyFont: d.bodyFont,
    corners: d.corners,
  });
  return `/website/branding/preview.css?${q.toString()}`;
}

function ImportPanel({ state, error }: { state: BrandImportState; error?: string }) {
  const revalidator = useRevalidator();
  const active = state.status === "queued" || state.status === "running";
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, 1000);
    return () => clearInterval(timer);
  }, [active, revalidator]);
  return (
    <section className="panel" aria-labelledby="import-heading">
      <h2 id="import-heading">Import from your current website</h2>
      <p>
        Give the address of the website you have today. Atrium reads its home page and brings in its logo, favicon,
        theme colour and social sharing image; you can change each of them afterwards.
      </p>
      <Form method="post" className="inline-form">
        <input type="hidden" name="intent" value="import" />
        <div className="field">
          <label htmlFor="import-url">Website address</label>
          <input
            id="import-url"
            name="url"
            type="text"
            inputMode="url"
            placeholder="https://www.example.com"
            defaultValue={state.url ?? ""}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "import-url-error" : undefined}
            disabled={active}
          />
          {error ? (
            <p className="field-error" id="import-url-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <button type="submit" disabled={active}>
          {active ? "Importing…" : state.status === "none" ? "Import my brand" : "Import again"}
        </button>
      </Form>
      {state.status !== "none" ? (
        <div className="import-state" role="status" aria-live="polite" data-status={state.status}>
          <p>
            <strong>
              {state.status === "done"
                ? "Import finished"
                : state.status === "failed"
                  ? "Import failed"
                  : state.status === "queued"
                    ? "Import queued"
                    : "Importing"}
            </strong>{" "}
            {state.url ? <span className="hint">from {state.url}</span> : null}
          </p>
          <progress max={100} value={state.progress} aria-label="Import progress">
            {state.progress}%
          </progress>
          {state.step ? <p>{state.step}</p> : null}
          {state.error ? <p className="field-error">{state.error}</p> : null}
          {state.found?.skipped.length ? (
            <ul className="hint">
              {state.found.skipped.map((s) => (
                <li key={s}>{s}</li>
              ))}
            </ul>
          ) : null}
          {active ? (
            <p className="hint">
              This page updates by itself. Without JavaScript, <Link to="/website/branding">refresh it</Link>.
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

function ImagePicker({
  id,
  label,
  hint,
  value,
  images,
  error,
  onChange,
}: {
  id: keyof Draft;
  label: string;
  hint: string;
  value: string;
  images: { id: string; name: string; src: string }[];
  error?: string;
  onChange: (value: string) => void;
}) {
  const chosen = images.find((i) => i.id === value);
  const describedBy = [`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="field image-picker">
      <label htmlFor={`field-${id}`}>{label}</label>
      <div className="image-picker__row">
        <div className="image-picker__thumb">
          {chosen ? <img src={chosen.src} alt="" /> : <span className="hint">None</span>}
        </div>
        <select
          id={`field-${id}`}
          name={id}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        >
          <option value="">None</option>
          {images.map((image) => (
            <option key={image.id} value={image.id}>
              {image.name}
            </option>
          ))}
        </select>
      </div>
      <p className="hint" id={`${id}-hint`}>
        {hint}
      </p>
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function ColorField({
  name,
  label,
  hint,
  value,
  error,
  onChange,
}: {
  name: "brand" | "accent" | "background" | "text";
  label: string;
  hint: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const describedBy = [`color-${name}-hint`, error ? `color-${name}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="field color-field">
      <label htmlFor={`color-${name}`}>{label}</label>
      <div className="color-field__row">
        <input
          id={`color-${name}`}
          name={name}
          type="color"
          value={normalizeHex(value) ?? "#000000"}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
        <code>{value}</code>
      </div>
      <p className="hint" id={`color-${name}-hint`}>
        {hint}
      </p>
      {error ? (
        <p className="field-error" id={`color-${name}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function Preview({
  draft,
  site,
  images,
}: {
  draft: Draft;
  site: { name: string };
  images: { id: string; src: string; wide: boolean }[];
}) {
  const logo = images.find((i) => i.id === draft.logoId);
  return (
    <div className="brand-preview" aria-label="Preview of your site" role="img">
      <div className="bp-header">
        <span className="bp-brand">
          {/* As on the site: a wide logo (a wordmark) alone, a square one beside the name. */}
          {logo ? <img src={logo.src} alt="" className={logo.wide ? "bp-logo bp-logo--wordmark" : "bp-logo"} /> : null}
          {logo?.wide ? null : <span className="bp-name">{site.name}</span>}
        </span>
        <span className="bp-nav">
          <span>Menu</span>
          <span>About</span>
          <span>Visit</span>
        </span>
      </div>
      <div className="bp-hero">
        <p className="bp-kicker">Open today</p>
        <p className="bp-heading">Made by hand, every morning</p>
        <p className="bp-text">
          This is how your pages read: body text on your background, with <span className="bp-link">a link</span> in
          your brand colour.
        </p>
        <span className="bp-actions">
          <span className="bp-button">Order ahead</span>
          <span className="bp-button bp-button--secondary">See the menu</span>
        </span>
      </div>
      <div className="bp-band">
        <p className="bp-band__heading">A band in your accent colour</p>
        <p className="bp-band__text">Used for highlights and calls to action.</p>
      </div>
    </div>
  );
}

export default function Branding() {
  const { site, branding, images, moreImages, importState } = useLoaderData<typeof loader>();
  const result = useActionData<BrandingResult>();
  const navigation = useNavigation();
  const errors = result?.intent === "save" || result?.intent === "preview" ? result.fieldErrors : undefined;
  const posted = result?.preview;
  const initial: Draft = useMemo(
    () => ({
      logoId: posted?.logoId ?? branding.logoId ?? "",
      faviconId: posted?.faviconId ?? branding.faviconId ?? "",
      socialImageId: posted?.socialImageId ?? branding.socialImageId ?? "",
      brand: posted?.brand ?? branding.colors.brand,
      accent: posted?.accent ?? branding.colors.accent,
      background: posted?.background ?? branding.colors.background,
      text: posted?.text ?? branding.colors.text,
      headingFont: (posted?.headingFont && Object.hasOwn(FONTS, posted.headingFont)
        ? posted.headingFont
        : branding.headingFont) as FontKey,
      bodyFont: (posted?.bodyFont && Object.hasOwn(FONTS, posted.bodyFont)
        ? posted.bodyFont
        : branding.bodyFont) as FontKey,
      corners: (CORNER_STYLES as readonly string[]).includes(posted?.corners ?? "")
        ? (posted!.corners as CornerStyle)
        : branding.corners,
    }),
    [branding, posted],
  );
  const [draft, setDraft] = useState<Draft>(initial);
  useEffect(() => setDraft(initial), [initial]);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));

  const colors = useMemo(() => {
    const hex = (v: string, fallback: string) => normalizeHex(v) ?? fallback;
    return {
      brand: hex(draft.brand, branding.colors.brand),
      accent: hex(draft.accent, branding.colors.accent),
      background: hex(draft.background, branding.colors.background),
      text: hex(draft.text, branding.colors.text),
    } as BrandColors;
  }, [draft, branding]);
  const checks = contrastChecks(colors);
  const logos = images.filter((i) => LOGO_TYPES.has(i.contentType));
  const icons = images.filter((i) => FAVICON_TYPES.has(i.contentType));
  const socials = images.filter((i) => SOCIAL_IMAGE_TYPES.has(i.contentType));
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const onFontChange = (e: FormEvent<HTMLSelectElement>) =>
    set({ [e.currentTarget.name]: e.currentTarget.value } as Partial<Draft>);

  return (
    <>
      <h1>Branding</h1>
      <p>
        How <strong>{site.name}</strong> looks on its public site: logo, favicon, colours and fonts.{" "}
        <a href={`/${site.slug}`}>View your site</a>
      </p>

      <ImportPanel
        state={result?.importState ?? importState}
        error={
          result?.intent === "import"
            ? (result.fieldErrors?.url ?? (result.ok ? undefined : result.message))
            : undefined
        }
      />

      {result && result.intent !== "import" ? (
        <FormMessage message={result.message} tone={result.ok ? "success" : "error"} />
      ) : null}

      <Form method="post" className="branding-form">
        <div className="branding-layout">
          <div className="branding-fields">
            <section className="panel" aria-labelledby="images-heading">
              <h2 id="images-heading">Logo and icons</h2>
              {images.length === 0 ? (
                <p className="empty">
                  Your media library is empty. <Link to="/website/media">Upload your logo and images</Link> there first,
                  or import them from your current website above.
                </p>
              ) : null}
              <ImagePicker
                id="logoId"
                label="Logo"
                hint="Shown in the header of every page. A wide PNG or SVG with a transparent background works best."
                value={draft.logoId}
                images={logos}
                error={errors?.logoId}
                onChange={(v) => set({ logoId: v })}
              />
              <ImagePicker
                id="faviconId"
                label="Favicon"
                hint="The small icon in browser tabs and bookmarks. A square image, at least 64 × 64."
                value={draft.faviconId}
                images={icons}
                error={errors?.faviconId}
                onChange={(v) => set({ faviconId: v })}
              />
              <ImagePicker
                id="socialImageId"
                label="Social sharing image"
                hint="Shown when someone shares your site. A 1200 × 630 PNG, JPEG or WebP."
                value={draft.socialImageId}
                images={socials}
                error={errors?.socialImageId}
                onChange={(v) => set({ socialImageId: v })}
              />
              {moreImages ? <p className="hint">Only your {images.length} most recent files are listed here.</p> : null}
              <p className="hint">
                <Link to="/website/media">Manage your media library</Link>
              </p>
            </section>

            <section className="panel" aria-labelledby="colors-heading">
              <h2 id="colors-heading">Colours</h2>
              <div className="color-grid">
                <ColorField
                  name="brand"
                  label="Brand colour"
                  hint="Buttons, links and highlights."
                  value={draft.brand}
                  error={errors?.["colors.brand"]}
                  onChange={(v) => set({ brand: v })}
                />
                <ColorField
                  name="accent"
                  label="Accent colour"
                  hint="Bands, badges and secondary highlights."
                  value={draft.accent}
                  error={errors?.["colors.accent"]}
                  onChange={(v) => set({ accent: v })}
                />
                <ColorField
                  name="background"
                  label="Background"
                  hint="The page behind your text."
                  value={draft.background}
                  error={errors?.["colors.background"]}
                  onChange={(v) => set({ background: v })}
                />
                <ColorField
                  name="text"
                  label="Text"
                  hint="Body text and headings."
                  value={draft.text}
                  error={errors?.["colors.text"]}
                  onChange={(v) => set({ text: v })}
                />
              </div>
              <h3 className="contrast-heading">Contrast check</h3>
              <p className="hint">
                Text needs a contrast of at least 4.5:1 to be readable by everyone (WCAG AA). Button text is chosen for
                you.
              </p>
              <ul className="contrast-list" data-testid="contrast-list">
                {checks.map((c) => (
                  <li key={c.label} className={c.passes ? "contrast-ok" : "contrast-fail"}>
                    <span>
                      {c.label}: <strong>{formatRatio(c.ratio)}</strong>{" "}
                      <span className="contrast-badge">{c.passes ? "Passes" : "Too low"}</span>
                      {c.note ? <span className="hint contrast-note">{c.note}</span> : null}
                    </span>
                  </li>
                ))}
              </ul>
            </section>

            <section className="panel" aria-labelledby="type-heading">
              <h2 id="type-heading">Fonts and shape</h2>
              <div className="field">
                <label htmlFor="field-headingFont">Heading font</label>
                <select id="field-headingFont" name="headingFont" value={draft.headingFont} onChange={onFontChange}>
                  {FONT_KEYS.map((key) => (
                    <option key={key} value={key}>
                      {FONTS[key].label} — {FONTS[key].description}
                    </option>
                  ))}
                </select>
                {errors?.headingFont ? <p className="field-error">{errors.headingFont}</p> : null}
              </div>
              <div className="field">
                <label htmlFor="field-bodyFont">Body font</label>
                <select id="field-bodyFont" name="bodyFont" value={draft.bodyFont} onChange={onFontChange}>
                  {FONT_KEYS.map((key) => (
                    <option key={key} value={key}>
                      {FONTS[key].label} — {FONTS[key].description}
                    </option>
                  ))}
                </select>
                {errors?.bodyFont ? <p className="field-error">{errors.bodyFont}</p> : null}
              </div>
              <fieldset className="field corner-choices">
                <legend>Corners of buttons and images</legend>
                {CORNER_STYLES.map((style) => (
                  <label key={style} className="choice">
                    <input
                      type="radio"
                      name="corners"
                      value={style}
                      checked={draft.corners === style}
                      onChange={() => set({ corners: style })}
                    />{" "}
                    {style === "square" ? "Square" : style === "soft" ? "Softly rounded" : "Round"}
                  </label>
                ))}
              </fieldset>
            </section>
          </div>

          <aside className="branding-preview-column" aria-labelledby="preview-heading">
            <div className="panel branding-preview-panel">
              <h2 id="preview-heading">Preview</h2>
              <link rel="stylesheet" href={previewHref(draft)} />
              <Preview draft={draft} site={site} images={images} />
              <p className="hint">
                The preview follows your changes. Without JavaScript, press Preview to see them before saving.
              </p>
            </div>
          </aside>
        </div>
        <div className="branding-actions">
          <button type="submit" name="intent" value="save" disabled={saving}>
            {saving ? "Saving…" : "Save branding"}
          </button>
          <button type="submit" name="intent" value="preview" className="secondary">
            Preview
          </button>
        </div>
      </Form>
    </>
  );
}
