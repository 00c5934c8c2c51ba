import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // One temp folder per run, shared with the server's suite (../tests/helpers/temp-root.ts).
    globalSetup: ["../tests/helpers/temp-root.ts", "tests/global-setup.ts"],
    environment: "node",
    // electron-builder reads its configuration through jiti, whose transpile cache would otherwise stay behind
    // in the temp folder (it is meant to persist); the packaging tests do not need it.
    env: { JITI_FS_CACHE: "false" },
    // The Electron smoke test starts a real app when the binary exists; give it room.
    testTimeout: 30_000,
  },
});
