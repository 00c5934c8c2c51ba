/**
 * The only channels between the shell's pages and the main process. Each names who may call it:
 * - `picker`: the shell's picker page (`app://shell`) in the picker window;
 * - `offline`: the shell's offline page in a deployment's window;
 * - `console`: the deployment's console, at the origin its window was opened for;
 * - `any`: any of those.
 * Arguments are validated with zod in the main process whatever the renderer's types say.
 */
import { z } from "zod";
import { CHANNEL_NAMES } from "./channel-names";

export type Audience = "picker" | "offline" | "console" | "any";

export const DeploymentName = z
  .string()
  .trim()
  .min(1, "Give the deployment a name.")
  .max(60, "Keep the name under 60 characters.")
  .refine((name) => !/\p{Cc}/u.test(name), "The name cannot contain control characters.");

const Id = z.string().regex(/^[a-z0-9-]{1,64}$/);

export const channels = {
  appVersion: { name: CHANNEL_NAMES.appVersion, audience: "any", args: z.tuple([]) },
  switchDeployment: { name: CHANNEL_NAMES.switchDeployment, audience: "any", args: z.tuple([]) },
  notify: {
    name: CHANNEL_NAMES.notify,
    audience: "console",
    args: z.tuple([z.object({ title: z.string().trim().min(1).max(120), body: z.string().max(500).default("") })]),
  },
  listDeployments: { name: CHANNEL_NAMES.listDeployments, audience: "picker", args: z.tuple([]) },
  probeDeployment: { name: CHANNEL_NAMES.probeDeployment, audience: "picker", args: z.tuple([z.string().max(2048)]) },
  addDeployment: {
    name: CHANNEL_NAMES.addDeployment,
    audience: "picker",
    args: z.tuple([z.object({ name: z.string().max(200), url: z.string().max(2048) })]),
  },
  renameDeployment: {
    name: CHANNEL_NAMES.renameDeployment,
    audience: "picker",
    args: z.tuple([z.object({ id: Id, name: z.string().max(200) })]),
  },
  removeDeployment: { name: CHANNEL_NAMES.removeDeployment, audience: "picker", args: z.tuple([Id]) },
  openDeployment: { name: CHANNEL_NAMES.openDeployment, audience: "picker", args: z.tuple([Id]) },
  retry: { name: CHANNEL_NAMES.retry, audience: "offline", args: z.tuple([]) },
  pickerNotice: { name: CHANNEL_NAMES.pickerNotice, audience: "picker", args: z.tuple([]) },
} as const satisfies Record<string, { name: string; audience: Audience; args: z.ZodTuple }>;

export type ChannelKey = keyof typeof channels;
export type ChannelArgs<K extends ChannelKey> = z.input<(typeof channels)[K]["args"]>;

export interface Deployment {
  id: string;
  name: string;
  origin: string;
  addedAt: string;
  lastOpenedAt: string | null;
  /** The Atrium version the deployment reported when it was last checked. */
  version: string | null;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

export interface ProbeSuccess {
  origin: string;
  version: string;
  /** false when the server answered as Atrium but reported its database down (503). */
  healthy: boolean;
}

/** What each channel answers. */
export interface ChannelResults {
  appVersion: string;
  switchDeployment: void;
  notify: void;
  listDeployments: Deployment[];
  probeDeployment: Outcome<ProbeSuccess>;
  addDeployment: Outcome<Deployment>;
  renameDeployment: Outcome<Deployment>;
  removeDeployment: Outcome<null>;
  openDeployment: Outcome<null>;
  /** Checks the deployment answers before loading it again, so a retry while it is down leaves no history. */
  retry: Outcome<null>;
  /** A message for the picker to show once, e.g. a deep link naming a deployment that is not saved. */
  pickerNotice: string | null;
}

/** What the preload exposes as `window.atriumDesktop`: named functions, never ipcRenderer itself. */
export interface DesktopApi {
  appVersion(): Promise<string>;
  switchDeployment(): Promise<void>;
  notify(notice: { title: string; body?: string }): Promise<void>;
  deployments: {
    list(): Promise<Deployment[]>;
    probe(url: string): Promise<Outcome<ProbeSuccess>>;
    add(input: { name: string; url: string }): Promise<Outcome<Deployment>>;
    rename(input: { id: string; name: string }): Promise<Outcome<Deployment>>;
    remove(id: string): Promise<Outcome<null>>;
    open(id: string): Promise<Outcome<null>>;
  };
  retry(): Promise<Outcome<null>>;
  pickerNotice(): Promise<string | null>;
}
