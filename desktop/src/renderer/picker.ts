/**
 * The deployment picker: list, add (checked against /api/health by the main process), rename, remove, open.
 * Text goes into the page with textContent only: names and addresses are the operator's input.
 */
import { parseDeploymentUrl } from "../shared/deployment-url";
import type { Deployment } from "../shared/ipc";
import { desktop, element } from "./bridge";

const list = element<HTMLUListElement>("deployments");
const empty = element<HTMLParagraphElement>("empty");
const notice = element<HTMLParagraphElement>("notice");
const form = element<HTMLFormElement>("add-form");
const urlInput = element<HTMLInputElement>("url");
const nameInput = element<HTMLInputElement>("name");
const urlStatus = element<HTMLParagraphElement>("url-status");
const addError = element<HTMLParagraphElement>("add-error");
const addButton = element<HTMLButtonElement>("add");

function button(label: string, onClick: () => void, className = ""): HTMLButtonElement {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if (className) b.className = className;
  b.addEventListener("click", onClick);
  return b;
}

function showNotice(text: string | null): void {
  notice.textContent = text ?? "";
  notice.hidden = !text;
}

function describe(deployment: Deployment): string {
  const parts = [deployment.origin];
  if (deployment.version) parts.push(`Atrium ${deployment.version}`);
  parts.push(
    deployment.lastOpenedAt ? `last opened ${new Date(deployment.lastOpenedAt).toLocaleString()}` : "never opened",
  );
  return parts.join(" · ");
}

function renderItem(deployment: Deployment): HTMLLIElement {
  const item = document.createElement("li");
  item.dataset.deploymentId = deployment.id;
  const title = document.createElement("strong");
  title.textContent = deployment.name;
  const meta = document.createElement("p");
  meta.className = "meta";
  meta.textContent = describe(deployment);
  const actions = document.createElement("div");
  actions.className = "actions";

  const open = button("Open", async () => {
    const result = await desktop.deployments.open(deployment.id);
    if (!result.ok) showNotice(result.error);
  });
  open.setAttribute("aria-label", `Open ${deployment.name}`);

  const rename = button(
    "Rename",
    () => {
      const field = document.createElement("input");
      field.value = deployment.name;
      field.maxLength = 60;
      field.setAttribute("aria-label", `New name for ${deployment.name}`);
      const error = document.createElement("p");
      error.className = "error";
      error.setAttribute("role", "alert");
      const save = button("Save name", async () => {
        const result = await desktop.deployments.rename({ id: deployment.id, name: field.value });
        if (result.ok) await refresh();
        else error.textContent = result.error;
      });
      field.addEventListener("keydown", (event) => {
        if (event.key === "Enter") save.click();
        if (event.key === "Escape") void refresh();
      });
      actions.replaceChildren(
        field,
        save,
        button("Cancel", () => void refresh(), "secondary"),
        error,
      );
      field.focus();
    },
    "secondary",
  );
  rename.setAttribute("aria-label", `Rename ${deployment.name}`);

  const remove = button(
    "Remove",
    () => {
      const question = document.createElement("span");
      question.textContent = `Remove ${deployment.name}? Its sign-in and stored data on this computer are deleted.`;
      const confirm = button(
        "Remove it",
        async () => {
          const result = await desktop.deployments.remove(deployment.id);
          if (!result.ok) showNotice(result.error);
          await refresh();
        },
        "danger",
      );
      const keep = button("Keep", () => void refresh(), "secondary");
      actions.replaceChildren(question, confirm, keep);
      keep.focus();
    },
    "secondary",
  );
  remove.setAttribute("aria-label", `Remove ${deployment.name}`);

  actions.append(open, rename, remove);
  item.append(title, meta, actions);
  return item;
}

async function refresh(): Promise<void> {
  const deployments = await desktop.deployments.list();
  list.replaceChildren(...deployments.map(renderItem));
  empty.hidden = deployments.length > 0;
}

// Immediate feedback on the address; the real check (does it answer as Atrium?) happens on save.
urlInput.addEventListener("change", () => {
  const parsed = parseDeploymentUrl(urlInput.value);
  urlStatus.textContent = parsed.ok || urlInput.value.trim() === "" ? "" : parsed.error;
});

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  addError.hidden = true;
  const parsed = parseDeploymentUrl(urlInput.value);
  if (!parsed.ok) {
    addError.textContent = parsed.error;
    addError.hidden = false;
    urlInput.focus();
    return;
  }
  addButton.disabled = true;
  urlStatus.textContent = `Checking ${parsed.origin}…`;
  try {
    const name = nameInput.value.trim() || new URL(parsed.origin).host;
    const result = await desktop.deployments.add({ name, url: parsed.origin });
    if (!result.ok) {
      urlStatus.textContent = "";
      addError.textContent = result.error;
      addError.hidden = false;
      return;
    }
    urlStatus.textContent = `Saved ${result.value.name}${result.value.version ? ` (Atrium ${result.value.version})` : ""}.`;
    form.reset();
    await refresh();
    list.querySelector<HTMLButtonElement>(`li[data-deployment-id="${result.value.id}"] button`)?.focus();
  } finally {
    addButton.disabled = false;
  }
});

void (async () => {
  showNotice(await desktop.pickerNotice());
  element<HTMLSpanElement>("version").textContent = await desktop.appVersion();
  await refresh();
  if (list.childElementCount === 0) urlInput.focus();
})();
