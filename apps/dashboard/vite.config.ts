/** The dashboard is served by the Wasl server under /app (same origin as the API). */
import react from "@vitejs/plugin-react"
import { defineConfig } from "vite"

export default defineConfig({
  base: "/app/",
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, reportCompressedSize: false }
})
