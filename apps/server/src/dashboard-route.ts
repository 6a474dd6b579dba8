/**
 * The web console (`apps/dashboard`, built by `npm run build`) served at `/app`, same origin as
 * the API so it signs in with the first-party session cookie. Only the files the build wrote are
 * served — they are listed once at start, so no request path can reach outside the folder — and
 * any other path under `/app` answers `index.html`, for the console's client-side routes.
 */
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { extname, join, relative, sep } from "node:path"
import { fileURLToPath } from "node:url"

/** Where the console is served. */
export const DASHBOARD_PATH = "/app"

/** The built console, beside this app in the repository. */
export const DASHBOARD_DIST = fileURLToPath(new URL("../../dashboard/dist/", import.meta.url))

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2"
}

// Vite names every file under assets/ by its content hash: a new build is a new name, so those
// can be cached for good; index.html names them and must be checked on every load.
const IMMUTABLE = "public, max-age=31536000, immutable"
const REVALIDATE = "no-cache"

const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin"
}

const listFiles = (root: string): ReadonlyMap<string, string> => {
  if (!existsSync(root)) return new Map()
  const entries = readdirSync(root, { recursive: true, withFileTypes: true })
  return new Map(
    entries
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const path = join(entry.parentPath, entry.name)
        return [relative(root, path).split(sep).join("/"), path] as const
      })
  )
}

const fileResponse = (path: string, name: string) =>
  HttpServerResponse.uint8Array(readFileSync(path), {
    contentType: CONTENT_TYPES[extname(name)] ?? "application/octet-stream",
    headers: { ...SECURITY_HEADERS, "cache-control": name.startsWith("assets/") ? IMMUTABLE : REVALIDATE }
  })

/** The console's routes, over the files found in `root` (the build's output) when the server starts. */
export const DashboardRoute = (root: string = DASHBOARD_DIST): Layer.Layer<never, never, HttpRouter.HttpRouter> =>
  Layer.unwrap(Effect.sync(() => {
    const files = listFiles(root)
    const serve = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const pathname = new URL(request.url, "http://wasl").pathname
      const name = pathname.slice(DASHBOARD_PATH.length).replace(/^\/+/, "")
      const file = files.get(name)
      if (file !== undefined) return fileResponse(file, name)
      const index = files.get("index.html")
      // A missing asset is a 404, not the page: a stale page asking for an old hash must fail clearly.
      if (name.startsWith("assets/") || index === undefined) {
        return HttpServerResponse.jsonUnsafe({ message: "Not found." }, { status: 404 })
      }
      return fileResponse(index, "index.html")
    })
    // With trailing slashes ignored, the wildcard route answers `/app` itself too.
    return HttpRouter.add("GET", `${DASHBOARD_PATH}/*`, serve)
  }))
