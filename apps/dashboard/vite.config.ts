/** The dashboard is served by the Wasl server under /app (same origin as the API). */
import react from "@vitejs/plugin-react"
import { defineConfig } from "vite"

export default defineConfig({
  base: "/app/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    reportCompressedSize: false,
    // The API client and the session, which the first load and the lazily loaded pages all use, as
    // one script: left to itself the bundler splits them by which pages import each.
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: "session", test: /\/src\/(api|session)\// }] } } }
  }
})
