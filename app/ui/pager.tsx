import { Link } from "@remix-run/react";

/** Newer / "Page n of m" / Older under a console list; nothing when everything fits on one page. */
export function Pager({ page, pages, label }: { page: number; pages: number; label: string }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="pager">
      {page > 1 ? <Link to={`?page=${page - 1}`}>Newer</Link> : null}
      <span>{`Page ${page} of ${pages}`}</span>
      {page < pages ? <Link to={`?page=${page + 1}`}>Older</Link> : null}
    </nav>
  );
}
