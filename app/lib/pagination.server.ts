/**
 * `?page=` of a console list: a whole number from 1, whatever the address bar says (`1e400`, `-3`, `abc`),
 * capped so the offset stays a safe integer for both databases.
 */
const MAX_PAGE = 10_000;

export interface PageRequest {
  page: number;
  size: number;
  offset: number;
}

export function pageOf(request: Request, size: number): PageRequest {
  const asked = Math.floor(Number(new URL(request.url).searchParams.get("page")));
  const page = Math.min(MAX_PAGE, Math.max(1, asked || 1));
  return { page, size, offset: (page - 1) * size };
}

export const pageCount = (total: number, size: number) => Math.max(1, Math.ceil(total / size));
