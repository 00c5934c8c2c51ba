/** The SOP's runs, newest first, a page at a time, each with its input and step results. */
import { useLoaderData } from "@remix-run/react";
import { Pager } from "~/ui/pager";
import type { loader } from "./route";

const json = (value: unknown) => JSON.stringify(value, null, 2);

export function RunsPanel() {
  const { runs, page, pages } = useLoaderData<typeof loader>();
  return (
    <section className="panel" aria-labelledby="runs">
      <h2 id="runs">Runs</h2>
      {runs.length === 0 ? (
        <p className="empty">No runs yet. A verified trigger queues one.</p>
      ) : (
        <ul className="runs">
          {runs.map((run) => (
            <li key={run.id} data-run-id={run.id} data-status={run.status}>
              <details>
                <summary>
                  <span className={`status status-${run.status}`}>{run.status}</span>
                  {` ${run.createdAt.slice(0, 19).replace("T", " ")} · ${run.steps.length} step results`}
                  {run.durationMs !== null ? ` · ${run.durationMs} ms` : ""}
                  {run.attempts > 1 ? ` · attempt ${run.attempts}` : ""}
                </summary>
                <p>
                  Run <code>{run.id}</code>
                </p>
                {run.error ? <p className="field-error">{run.error}</p> : null}
                <h3>Input</h3>
                <pre>
                  <code>{json(run.input)}</code>
                </pre>
                <h3>Steps</h3>
                <ol>
                  {run.steps.map((s) => (
                    <li key={s.index}>
                      {`${s.name} (${s.type}): ${s.status}`}
                      {s.error ? <p className="field-error">{s.error}</p> : null}
                      {s.output !== null ? (
                        <pre>
                          <code>{json(s.output)}</code>
                        </pre>
                      ) : null}
                    </li>
                  ))}
                </ol>
              </details>
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} pages={pages} label="Pages of runs" />
    </section>
  );
}
