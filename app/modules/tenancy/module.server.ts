/**
 * Workspaces' farewells: what a module must tell the world outside before a workspace is deleted with its account
 * (a shop's payment and shipping providers keep webhooks pointed at us, and Stripe would go on charging its
 * customers' subscriptions). Modules contribute `workspaceFarewells`; `deleteAccount` runs them for each workspace
 * the account owns, before the rows go. Each is best effort: a provider that cannot be reached is logged for the
 * operator (who still has their provider's dashboard), and never keeps an account from being deleted.
 */
import { defineModule } from "~/lib/module";

export type WorkspaceFarewell = (workspaceId: string) => Promise<void>;

export interface WorkspaceFarewells {
  run(workspaceId: string): Promise<void>;
}

declare module "~/lib/context" {
  interface AppServices {
    workspaceFarewells: WorkspaceFarewells;
  }
}

declare module "~/lib/module" {
  interface ModuleContributions {
    /** Run before a workspace is deleted with its owner's account. */
    workspaceFarewells: WorkspaceFarewell[];
  }
}

export const tenancyModule = defineModule({
  name: "tenancy",
  services: ({ logger }) => {
    const farewells: WorkspaceFarewell[] = [];
    const registry: WorkspaceFarewells & { add(list: WorkspaceFarewell[]): void } = {
      add: (list) => void farewells.push(...list),
      async run(workspaceId) {
        for (const farewell of farewells) {
          try {
            await farewell(workspaceId);
          } catch (error) {
            logger.warn({ err: error, workspace: workspaceId }, "a workspace's farewell failed; it is deleted anyway");
          }
        }
      },
    };
    return { workspaceFarewells: registry };
  },
  start: ({ workspaceFarewells }, contributions) => {
    (workspaceFarewells as WorkspaceFarewells & { add(list: WorkspaceFarewell[]): void }).add(
      contributions.flatMap((c) => c.workspaceFarewells ?? []),
    );
  },
});
