import { Link } from "@remix-run/react";

export interface ChecklistStep {
  id: string;
  title: string;
  description: string;
  done: boolean;
  href: string;
  action: string;
}

/** A setup checklist (the shop's readiness, scheduling's setup): done steps ticked, the rest with what to do next. */
export function Checklist({ items }: { items: readonly ChecklistStep[] }) {
  return (
    <ol className="checklist">
      {items.map((item) => (
        <li key={item.id} className={item.done ? "done" : undefined}>
          <span className="tick" aria-hidden="true">
            {item.done ? "✓" : ""}
          </span>
          <div>
            <h3>
              {item.title}
              <span className="visually-hidden">{item.done ? " (done)" : " (to do)"}</span>
            </h3>
            {item.done ? null : (
              <>
                <p>{item.description}</p>
                <Link to={item.href}>{item.action}</Link>
              </>
            )}
          </div>
        </li>
      ))}
    </ol>
  );
}
