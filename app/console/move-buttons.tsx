import { Form } from "@remix-run/react";

/**
 * Four small buttons that move an item of a manual order (a collection, a product in one): one post each, so the
 * order can be changed without JavaScript and by keyboard. The ends' buttons are left out, not disabled, so a
 * screen reader meets only the moves that do something.
 */
export function MoveButtons({
  fields,
  name,
  first,
  last,
}: {
  fields: Record<string, string>;
  /** What is moved, for the buttons' accessible names ("Move Cakes up"). */
  name: string;
  first: boolean;
  last: boolean;
}) {
  const moves = [
    { move: "first", label: "To top", sign: "⤒", show: !first },
    { move: "up", label: "Up", sign: "↑", show: !first },
    { move: "down", label: "Down", sign: "↓", show: !last },
    { move: "last", label: "To bottom", sign: "⤓", show: !last },
  ];
  return (
    <Form method="post" className="move-buttons">
      {Object.entries(fields).map(([key, value]) => (
        <input key={key} type="hidden" name={key} value={value} />
      ))}
      {moves.map((m) =>
        m.show ? (
          <button key={m.move} type="submit" name="move" value={m.move} className="secondary" title={m.label}>
            <span aria-hidden="true">{m.sign}</span>
            <span className="visually-hidden">{`Move ${name} ${m.label.toLowerCase()}`}</span>
          </button>
        ) : (
          <span key={m.move} className="move-buttons__gap" aria-hidden="true" />
        ),
      )}
    </Form>
  );
}
