import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/global-setup.ts"],
    environment: "node",
    // The Electron smoke test starts a real app when the binary exists; give it room.
    testTimeout: 30_000,
  },
});
