/** A trigger secret just issued (created or rotated): shown once, with signing examples. */
import { curlExample, nodeExample } from "~/modules/sops/examples";
import type { IssuedSecret } from "~/modules/sops/sop-triggers.server";
import { CopyButton } from "./copy-button";

export function NewSecret({ issued, triggerUrl }: { issued: IssuedSecret; triggerUrl: string }) {
  const values = { url: triggerUrl, secret: issued.secret };
  return (
    <section className="panel new-key" aria-labelledby="new-secret">
      <h2 id="new-secret">Your trigger secret</h2>
      <p>
        <strong>Copy it now: it will not be shown again.</strong> Any earlier secret of this trigger stopped working at
        once.
      </p>
      <p className="key-line">
        <code data-testid="trigger-secret">{issued.secret}</code>
        <CopyButton value={issued.secret} label="Copy the secret" />
      </p>
      <h3>Sign a request with curl and openssl</h3>
      <pre>
        <code data-testid="curl-example">{curlExample(values)}</code>
      </pre>
      <h3>Or with Node</h3>
      <pre>
        <code>{nodeExample(values)}</code>
      </pre>
    </section>
  );
}
