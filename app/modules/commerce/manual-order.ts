/**
 * A manual order (collections, and the products in one): where an item goes when the operator moves it. Pure, so
 * the console's buttons and the tests share one rule; the repository writes back only the positions that moved.
 */
export const MOVES = ["first", "up", "down", "last"] as const;
export type Move = (typeof MOVES)[number];

export function isMove(value: unknown): value is Move {
  return typeof value === "string" && (MOVES as readonly string[]).includes(value);
}

/** `ids` in their current order with `id` moved; the same order when `id` is absent or already at that end. */
export function moveInOrder(ids: readonly string[], id: string, move: Move): string[] {
  const from = ids.indexOf(id);
  if (from < 0) return [...ids];
  const to =
    move === "first"
      ? 0
      : move === "last"
        ? ids.length - 1
        : move === "up"
          ? Math.max(0, from - 1)
          : Math.min(ids.length - 1, from + 1);
  const next = ids.filter((other) => other !== id);
  next.splice(to, 0, id);
  return next;
}

/** The rows whose position must change for `order` to read 0, 1, 2…: what a save writes, nothing more. */
export function changedPositions(
  current: readonly { id: string; position: number }[],
  order: readonly string[],
): { id: string; position: number }[] {
  const was = new Map(current.map((row) => [row.id, row.position]));
  return order.flatMap((id, position) => (was.get(id) === position ? [] : [{ id, position }]));
}
