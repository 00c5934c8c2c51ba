import { Form } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * A one-button post that asks first (revoke, delete, rotate): `fields` travel as hidden inputs, `children` is
 * the button. The browser's confirm dialog needs JavaScript; without it the post goes straight through.
 */
export function ConfirmForm({
  confirm,
  fields,
  children,
}: {
  confirm: string;
  fields: Record<string, string>;
  children: ReactNode;
}) {
  return (
    <Form
      method="post"
      onSubmit={(event) => {
        if (!window.confirm(confirm)) event.preventDefault();
      }}
    >
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </Form>
  );
}
