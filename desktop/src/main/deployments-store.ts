/**
 * Saved deployments and their window geometry, in one JSON file under the app's user-data folder. Writes go
 * to a temporary file renamed over the old one, so a crash mid-write leaves the previous list, never half of
 * one. A file that does not parse is set aside (not deleted) and the operator starts from an empty list.
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import { parseDeploymentUrl } from "../shared/deployment-url";
import { DeploymentName, type Deployment, type Outcome } from "../shared/ipc";
import { WindowState } from "./window-state";

const StoredDeployment = z.object({
  id: z.string(),
  name: z.string(),
  origin: z.string(),
  addedAt: z.string(),
  lastOpenedAt: z.string().nullable(),
  version: z.string().nullable(),
});

const StoreFile = z.object({
  version: z.literal(1),
  deployments: z.array(StoredDeployment),
  windows: z.record(z.string(), WindowState),
});
type StoreFile = z.infer<typeof StoreFile>;

const empty = (): StoreFile => ({ version: 1, deployments: [], windows: {} });

/** Cookies, storage and cache of one deployment; `persist:` keeps them on disk between runs. */
export const partitionFor = (deployment: Pick<Deployment, "id">) => `persist:deployment-${deployment.id}`;

export interface DeploymentsStore {
  list(): Deployment[];
  get(id: string): Deployment | undefined;
  byName(name: string): Deployment | undefined;
  /** The deployment opened most recently, reopened at start. */
  lastOpened(): Deployment | undefined;
  add(input: { name: string; url: string; version: string | null }): Outcome<Deployment>;
  rename(id: string, name: string): Outcome<Deployment>;
  remove(id: string): Outcome<Deployment>;
  markOpened(id: string, at?: Date): void;
  windowState(id: string): WindowState | undefined;
  saveWindowState(id: string, state: WindowState): void;
}

export function openDeploymentsStore(file: string, log: (message: string) => void = () => {}): DeploymentsStore {
  let data = load(file, log);

  const save = (next: StoreFile) => {
    mkdirSync(dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, file);
    data = next;
  };
  const sameName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: "accent" }) === 0;
  const checkName = (name: string, exceptId?: string): Outcome<string> => {
    const parsed = DeploymentName.safeParse(name);
    if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "Invalid name." };
    const clash = data.deployments.find((d) => d.id !== exceptId && sameName(d.name, parsed.data));
    if (clash) return { ok: false, error: `A deployment is already named "${clash.name}".` };
    return { ok: true, value: parsed.data };
  };
  const byId = (id: string) => data.deployments.find((d) => d.id === id);

  return {
    list: () => [...data.deployments].sort((a, b) => a.name.localeCompare(b.name)),
    get: byId,
    byName: (name) => data.deployments.find((d) => sameName(d.name, name.trim())),
    lastOpened: () =>
      data.deployments
        .filter((d) => d.lastOpenedAt !== null)
        .sort((a, b) => (b.lastOpenedAt ?? "").localeCompare(a.lastOpenedAt ?? ""))[0],
    add({ name, url, version }) {
      const checkedName = checkName(name);
      if (!checkedName.ok) return checkedName;
      const address = parseDeploymentUrl(url);
      if (!address.ok) return address;
      const twin = data.deployments.find((d) => d.origin === address.origin);
      if (twin) return { ok: false, error: `${address.origin} is already saved as "${twin.name}".` };
      const deployment: Deployment = {
        id: randomUUID(),
        name: checkedName.value,
        origin: address.origin,
        addedAt: new Date().toISOString(),
        lastOpenedAt: null,
        version,
      };
      save({ ...data, deployments: [...data.deployments, deployment] });
      return { ok: true, value: deployment };
    },
    rename(id, name) {
      const current = byId(id);
      if (!current) return { ok: false, error: "That deployment is no longer saved." };
      const checkedName = checkName(name, id);
      if (!checkedName.ok) return checkedName;
      const renamed = { ...current, name: checkedName.value };
      save({ ...data, deployments: data.deployments.map((d) => (d.id === id ? renamed : d)) });
      return { ok: true, value: renamed };
    },
    remove(id) {
      const current = byId(id);
      if (!current) return { ok: false, error: "That deployment is no longer saved." };
      const { [id]: _forgotten, ...windows } = data.windows;
      save({ ...data, deployments: data.deployments.filter((d) => d.id !== id), windows });
      return { ok: true, value: current };
    },
    markOpened(id, at = new Date()) {
      if (!byId(id)) return;
      const lastOpenedAt = at.toISOString();
      save({ ...data, deployments: data.deployments.map((d) => (d.id === id ? { ...d, lastOpenedAt } : d)) });
    },
    windowState: (id) => data.windows[id],
    saveWindowState(id, state) {
      if (!byId(id)) return;
      save({ ...data, windows: { ...data.windows, [id]: state } });
    },
  };
}

function load(file: string, log: (message: string) => void): StoreFile {
  if (!existsSync(file)) return empty();
  try {
    return StoreFile.parse(JSON.parse(readFileSync(file, "utf8")));
  } catch (error) {
    const aside = `${file}.unreadable-${Date.now()}`;
    renameSync(file, aside);
    log(`deployments file could not be read (${String(error)}); moved to ${aside}, starting empty`);
    return empty();
  }
}
