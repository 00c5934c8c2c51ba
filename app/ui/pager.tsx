import { Link } from "@remix-run/react";

/**
 * Newer / "Page n of m" / Older under a console list; nothing when everything fits on one page. `query` keeps a
 * list's other parameters (its filter, its search) on every page.
 */
export function Pager({
  page,
  pages,
  label,
  query = {},
}: {
  page: number;
  pages: number;
  label: string;
  query?: Record<string, string>;
}) {
  if (pages <= 1) return null;
  const to = (n: number) => `?${new URLSearchParams({ ...query, page: String(n) })}`;
  return (
    <nav aria-label={label} className="pager">
      {page > 1 ? <Link to={to(page - 1)}>Newer</Link> : null}
      <span>{`Page ${page} of ${pages}`}</span>
      {page < pages ? <Link to={to(page + 1)}>Older</Link> : null}
    </nav>
  );
}
