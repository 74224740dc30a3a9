import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

export default defineConfig({
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  test: { environment: "jsdom", globals: true, include: ["src/**/*.test.{ts,tsx}"], setupFiles: ["src/testSetup.ts"] },
});
