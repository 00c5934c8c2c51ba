// /website/media — the media library: upload (type read from the bytes, size limit, quota), a paginated grid
// of the workspace's files, and for one file (?file=): its description (alt text), replacing its bytes, where it
// is used, and deleting it. Viewers see the library; editors change it. Works without JavaScript.
import { slugBase } from "~/lib/link-base";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { invalid, notFound } from "~/lib/errors";
import type { FormResult } from "~/lib/forms.server";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { filesOf } from "~/modules/files/files.server";
import { ACCEPTED_LABEL, ACCEPTED_TYPES } from "~/modules/files/accepted";
import { mediaSrc, mediaSrcSet } from "~/modules/files/media-urls";
import { runUploadForm } from "~/modules/files/upload.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { FormMessage } from "~/ui/form";
import { Pager } from "~/ui/pager";
import mediaCss from "~/styles/console-media.css?url";

export const meta: MetaFunction = () => [{ title: "Media · Atrium" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: mediaCss }];

const PAGE_SIZE = 24;

const NOTICES: Record<string, string> = {
  uploaded: "Uploaded. Describe the image below for people who cannot see it.",
  deleted: "File deleted. Pages that showed it now show nothing in its place.",
};

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  const files = filesOf(context.services, workspace.id);
  const url = new URL(request.url);
  const { page, ...window } = pageOf(request, PAGE_SIZE);
  const selectedId = url.searchParams.get("file");
  const [{ items, total }, usage, selected] = await Promise.all([
    files.list(window),
    files.usage(),
    selectedId ? files.byId(selectedId) : undefined,
  ]);
  if (selectedId && !selected) throw notFound("No such file in this workspace");
  const view = (item: (typeof items)[number]) => ({
    ...item,
    thumb: mediaSrc(slugBase(workspace.slug), item, 320),
    preview: mediaSrc(slugBase(workspace.slug), item, 640),
    src: mediaSrc(slugBase(workspace.slug), item),
    srcSet: mediaSrcSet(slugBase(workspace.slug), item) ?? null,
  });
  return {
    canEdit: roleAtLeast(role, "editor"),
    items: items.map(view),
    total,
    page,
    pages: pageCount(total, PAGE_SIZE),
    usage,
    selected: selected ? { ...view(selected), usedIn: await files.whereUsed(selected.id) } : null,
    confirmDelete: Boolean(selected) && roleAtLeast(role, "editor") && url.searchParams.get("delete") === "confirm",
    notice: NOTICES[url.searchParams.get("notice") ?? ""] ?? null,
  };
});

type MediaResult = FormResult & { fileId?: string };

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { workspace, session } = await requireWorkspace(request, context, "editor");
  const files = filesOf(context.services, workspace.id);
  const actor = { actorUserId: session.user.id, ip: context.request.ip };
  const chooseFile = () => invalid("Choose a file to upload", [{ field: "file", message: "Choose a file to upload" }]);
  return runUploadForm(request, context, async ({ values, file }): Promise<MediaResult | Response> => {
    const fileId = values.fileId ?? "";
    switch (values.intent) {
      case "upload": {
        if (!file) throw chooseFile();
        const item = await files.upload({ ...file, alt: values.alt ?? "", ...actor });
        return redirect(`/website/media?file=${item.id}&notice=uploaded`, 303);
      }
      case "alt":
        await files.setAlt(fileId, values.alt ?? "", actor);
        return { ok: true, intent: "alt", fileId, message: "Description saved." };
      case "replace": {
        if (!file) throw chooseFile();
        await files.replace(fileId, file.bytes, file.filename, actor);
        return {
          ok: true,
          intent: "replace",
          fileId,
          message: "File replaced: every page that shows it now shows the new image.",
        };
      }
      case "delete":
        // Deleting takes a second, explicit step (the confirmation panel's form sends `confirm=delete`), with
        // or without JavaScript; a bare delete post is sent to that step.
        if (values.confirm !== "delete") {
          if (!(await files.byId(fileId))) throw notFound("No such file in this workspace");
          return redirect(`/website/media?file=${encodeURIComponent(fileId)}&delete=confirm`, 303);
        }
        await files.remove(fileId, actor);
        return redirect("/website/media?notice=deleted", 303);
      default:
        throw invalid("Unknown action");
    }
  });
});

const megabytes = (bytes: number) => {
  const mb = bytes / 1_048_576;
  return `${mb >= 10 || Number.isInteger(mb) ? Math.round(mb) : mb.toFixed(1)} MB`;
};
const size = (bytes: number) =>
  bytes === 0
    ? "0 KB"
    : bytes < 1_048_576
      ? `${Math.max(1, Math.round(bytes / 1024))} KB`
      : `${(bytes / 1_048_576).toFixed(1)} MB`;

/** Logos, icons and banners are shown whole in the grid; photos fill their tile. */
function containThumb(item: { contentType: string; width: number | null; height: number | null }) {
  if (item.contentType === "image/svg+xml" || item.contentType === "image/x-icon") return true;
  if (!item.width || !item.height) return true;
  const ratio = item.width / item.height;
  return ratio > 2 || ratio < 0.6;
}

function FileError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p className="field-error" id={id} role="alert">
      {error}
    </p>
  ) : null;
}

export default function MediaLibrary() {
  const { canEdit, items, total, page, pages, usage, selected, notice, confirmDelete } = useLoaderData<typeof loader>();
  const result = useActionData<MediaResult>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errorsFor = (intent: string) => (result?.intent === intent ? result.fieldErrors : undefined);
  const uploadErrors = errorsFor("upload");
  const percent = Math.min(100, Math.round((usage.usedBytes / usage.quotaBytes) * 100));
  const accept = ACCEPTED_TYPES.join(",");
  const general =
    result && !result.ok && !Object.keys(result.fieldErrors ?? {}).length && result.intent !== "upload" ? result : null;

  return (
    <>
      <h1>Media</h1>
      <p>
        Images for your site: photos, your logo, illustrations. Upload once, use them on any page. Each one is served in
        sizes that fit phones and desktops.
      </p>
      <p className="media-usage">
        <span>
          {`${size(usage.usedBytes)} of ${megabytes(usage.quotaBytes)} used · ${total} ${total === 1 ? "file" : "files"}`}
        </span>
        <meter min={0} max={usage.quotaBytes} value={usage.usedBytes} aria-label={`Storage used: ${percent}%`} />
      </p>
      {notice ? <FormMessage message={notice} tone="success" /> : null}
      {general ? <FormMessage message={general.message} /> : null}

      {selected ? (
        <section className="panel media-detail" aria-labelledby="media-detail">
          <div className="media-detail-head">
            <h2 id="media-detail">{selected.filename}</h2>
            <Link to={page > 1 ? `/website/media?page=${page}` : "/website/media"}>Close</Link>
          </div>
          <div className="media-detail-body">
            <a className="media-preview" href={selected.src} target="_blank" rel="noreferrer">
              <img
                src={selected.preview}
                srcSet={selected.srcSet ?? undefined}
                sizes="(max-width: 700px) 90vw, 360px"
                alt={selected.alt || `Preview of ${selected.filename}`}
                width={selected.width ?? undefined}
                height={selected.height ?? undefined}
              />
            </a>
            <div className="media-detail-info">
              <dl className="media-facts">
                <dt>Type</dt>
                <dd>{selected.contentType.replace("image/", "").replace("svg+xml", "SVG").toUpperCase()}</dd>
                <dt>Size</dt>
                <dd>
                  {selected.width && selected.height ? `${selected.width} × ${selected.height} px · ` : ""}
                  {size(selected.byteSize)}
                </dd>
                <dt>Uploaded</dt>
                <dd>{selected.createdAt.slice(0, 10)}</dd>
                <dt>Address</dt>
                <dd>
                  <a href={selected.src} className="media-address">
                    {selected.src}
                  </a>
                </dd>
              </dl>
              <h3>Used on</h3>
              {selected.usedIn.length ? (
                <ul className="media-uses">
                  {selected.usedIn.map((use) => (
                    <li key={use.href + use.label}>
                      <Link to={use.href}>{use.label}</Link>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="hint">Not used on any page or in your branding yet.</p>
              )}
            </div>
          </div>
          {canEdit ? (
            <div className="media-detail-forms">
              <Form method="post" key={`alt-${selected.id}-${selected.updatedAt}`}>
                <input type="hidden" name="intent" value="alt" />
                <input type="hidden" name="fileId" value={selected.id} />
                <div className="field">
                  <label htmlFor="media-alt">Description (alt text)</label>
                  <textarea
                    id="media-alt"
                    name="alt"
                    rows={2}
                    maxLength={300}
                    defaultValue={selected.alt}
                    aria-describedby="media-alt-hint"
                    aria-invalid={errorsFor("alt")?.alt ? true : undefined}
                  />
                  <p className="hint" id="media-alt-hint">
                    What the image shows, for people using screen readers and for search engines. Leave empty for purely
                    decorative images.
                  </p>
                  <FileError id="media-alt-error" error={errorsFor("alt")?.alt} />
                </div>
                {result?.intent === "alt" && result.ok ? <FormMessage message={result.message} tone="success" /> : null}
                <button type="submit" disabled={busy}>
                  Save description
                </button>
              </Form>
              <Form method="post" encType="multipart/form-data" key={`replace-${selected.id}-${selected.sha256}`}>
                <input type="hidden" name="intent" value="replace" />
                <input type="hidden" name="fileId" value={selected.id} />
                <div className="field">
                  <label htmlFor="media-replace">Replace with another file</label>
                  <input
                    id="media-replace"
                    name="file"
                    type="file"
                    accept={accept}
                    required
                    aria-describedby="media-replace-hint"
                    aria-invalid={errorsFor("replace")?.file ? true : undefined}
                  />
                  <p className="hint" id="media-replace-hint">
                    Every page that shows this file shows the new one; its description stays.
                  </p>
                  <FileError id="media-replace-error" error={errorsFor("replace")?.file} />
                </div>
                {result?.intent === "replace" && result.ok ? (
                  <FormMessage message={result.message} tone="success" />
                ) : null}
                <button type="submit" className="secondary" disabled={busy}>
                  Replace file
                </button>
              </Form>
              {confirmDelete ? (
                <div className="media-delete media-delete-confirm" role="group" aria-labelledby="media-delete-confirm">
                  <h3 id="media-delete-confirm">{`Delete “${selected.filename}”?`}</h3>
                  <p>
                    {selected.usedIn.length
                      ? `It is used on: ${selected.usedIn.map((u) => u.label).join(", ")}. Those places will show no image. This cannot be undone.`
                      : "It is not used anywhere. This cannot be undone."}
                  </p>
                  <Form method="post" className="media-delete-actions">
                    <input type="hidden" name="intent" value="delete" />
                    <input type="hidden" name="fileId" value={selected.id} />
                    <input type="hidden" name="confirm" value="delete" />
                    <button type="submit" className="danger" disabled={busy}>
                      Yes, delete this file
                    </button>
                    <Link to={`/website/media?${page > 1 ? `page=${page}&` : ""}file=${selected.id}`}>Keep it</Link>
                  </Form>
                </div>
              ) : (
                <div className="media-delete">
                  <p className="hint">
                    {selected.usedIn.length
                      ? `Deleting removes it from ${selected.usedIn.length === 1 ? "the place" : `the ${selected.usedIn.length} places`} listed under “Used on”.`
                      : "Deleting cannot be undone."}
                  </p>
                  <Link
                    className="button danger"
                    to={`/website/media?${page > 1 ? `page=${page}&` : ""}file=${selected.id}&delete=confirm`}
                    aria-label={`Delete file ${selected.filename}…`}
                  >
                    Delete file…
                  </Link>
                </div>
              )}
            </div>
          ) : null}
        </section>
      ) : null}

      {canEdit ? (
        <section className="panel" aria-labelledby="media-upload">
          <h2 id="media-upload">Upload</h2>
          <Form method="post" encType="multipart/form-data" className="media-upload" key={`upload-${total}`}>
            <input type="hidden" name="intent" value="upload" />
            <div className="field">
              <label htmlFor="media-file">Image</label>
              <input
                id="media-file"
                name="file"
                type="file"
                accept={accept}
                required
                aria-describedby={`media-file-hint${uploadErrors?.file ? " media-file-error" : ""}`}
                aria-invalid={uploadErrors?.file ? true : undefined}
              />
              <p className="hint" id="media-file-hint">
                {`${ACCEPTED_LABEL}, up to ${megabytes(usage.maxFileBytes)}. Location data in photos is removed.`}
              </p>
              <FileError id="media-file-error" error={uploadErrors?.file} />
            </div>
            <div className="field">
              <label htmlFor="media-new-alt">Description (optional)</label>
              <input
                id="media-new-alt"
                name="alt"
                maxLength={300}
                aria-invalid={uploadErrors?.alt ? true : undefined}
              />
              <FileError id="media-new-alt-error" error={uploadErrors?.alt} />
            </div>
            {result?.intent === "upload" && !result.ok && !Object.keys(uploadErrors ?? {}).length ? (
              <FormMessage message={result.message} />
            ) : null}
            <button type="submit" disabled={busy}>
              {busy && navigation.formData?.get("intent") === "upload" ? "Uploading…" : "Upload"}
            </button>
          </Form>
        </section>
      ) : null}

      <section className="panel" aria-labelledby="media-library">
        <h2 id="media-library">Library</h2>
        {items.length === 0 && total > 0 ? (
          <p className="empty">
            {`There is no page ${page} of files: the library has ${pages} ${pages === 1 ? "page" : "pages"}. `}
            <Link to="/website/media">Go to the newest files</Link>
          </p>
        ) : items.length === 0 ? (
          <p className="empty">
            {canEdit
              ? "No files yet. Upload your logo and a few photos of your business above, then use them on your pages."
              : "No files yet. An editor of this workspace can upload images here."}
          </p>
        ) : (
          <ul className="media-grid">
            {items.map((item) => (
              <li key={item.id} className={selected?.id === item.id ? "selected" : undefined}>
                <Link
                  to={`/website/media?${page > 1 ? `page=${page}&` : ""}file=${item.id}`}
                  aria-current={selected?.id === item.id ? "true" : undefined}
                >
                  <span className={`media-thumb${containThumb(item) ? " contain" : ""}`}>
                    <img
                      src={item.thumb}
                      alt=""
                      loading="lazy"
                      width={item.width ?? undefined}
                      height={item.height ?? undefined}
                    />
                  </span>
                  <span className="media-name">{item.filename}</span>
                  <span className="media-meta">
                    {item.width && item.height ? `${item.width}×${item.height} · ` : ""}
                    {size(item.byteSize)}
                  </span>
                  {item.alt ? null : <span className="media-flag">No description</span>}
                </Link>
              </li>
            ))}
          </ul>
        )}
        <Pager page={page} pages={pages} label="Pages of files" />
      </section>
    </>
  );
}
