/** A page's publishing state as a badge, in the pages list and the editor. */
export function StatusBadge({ page }: { page: { status: "draft" | "published"; hasChanges: boolean } }) {
  if (page.status === "draft") return <span className="status status-draft">Draft</span>;
  if (page.hasChanges) return <span className="status status-changes">Published · changes not live</span>;
  return <span className="status status-published">Published</span>;
}
