/**
 * The web console (`apps/dashboard`, built by `npm run build`) served at `/app`, same origin as
 * the API so it signs in with the first-party session cookie. Only the files the build wrote are
 * served — they are listed once at start, so no request path can reach outside the folder — and
 * any other path under `/app` answers `index.html`, for the console's client-side routes. Text
 * files are answered compressed (brotli or gzip, as the request's Accept-Encoding prefers, with
 * `Vary: Accept-Encoding`), each compressed once, at its first request, and kept. `/` redirects
 * to the console, and so do the paths Wasl's mails link to (an invitation, a new e-mail's
 * confirmation, an e-mail's verification), each to the console's page for it.
 */
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import Negotiator from "negotiator"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { extname, join, relative, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib"

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

// What is worth compressing: text. Images and fonts are compressed by their own formats.
const COMPRESSIBLE = new Set([".html", ".js", ".css", ".svg", ".json"])

// Brotli's quality 5 takes the console's script (287 KB) to 82 KB in about 70 ms, once per
// process; quality 11 saves 7 KB more for 1.6 s of CPU.
const ENCODERS = {
  br: (bytes: Uint8Array) => brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (bytes: Uint8Array) => gzipSync(bytes, { level: 9 })
} as const
type Encoding = keyof typeof ENCODERS
const ENCODINGS: ReadonlyArray<Encoding | "identity"> = ["br", "gzip", "identity"]

// negotiator 1.x takes the server's order for ties (`gzip, br` → br); @types/negotiator
// describes 0.6, without that option.
const negotiate = Negotiator.prototype.encoding as (
  this: Negotiator,
  available: ReadonlyArray<string>,
  options: { readonly preferred: ReadonlyArray<string> }
) => string | undefined

/** The encoding the request's Accept-Encoding prefers among {@link ENCODINGS}; brotli on a tie. */
const preferredEncoding = (acceptEncoding: string | undefined) =>
  negotiate.call(new Negotiator({ headers: { "accept-encoding": acceptEncoding ?? "identity" } }), ENCODINGS, {
    preferred: ENCODINGS
  }) as Encoding | "identity" | undefined

/** A served file: its bytes read once, and each compressed form made at its first request. */
class ServedFile {
  private bytes: Uint8Array | undefined
  private readonly encoded = new Map<Encoding, Uint8Array>()
  readonly path: string
  readonly name: string
  constructor(path: string, name: string) {
    this.path = path
    this.name = name
  }

  get compressible(): boolean {
    return COMPRESSIBLE.has(extname(this.name))
  }

  body(encoding: Encoding | "identity"): Uint8Array {
    this.bytes ??= readFileSync(this.path)
    if (encoding === "identity") return this.bytes
    let encoded = this.encoded.get(encoding)
    if (encoded === undefined) {
      encoded = ENCODERS[encoding](this.bytes)
      this.encoded.set(encoding, encoded)
    }
    return encoded
  }
}

const listFiles = (root: string): ReadonlyMap<string, ServedFile> => {
  if (!existsSync(root)) return new Map()
  const entries = readdirSync(root, { recursive: true, withFileTypes: true })
  return new Map(
    entries
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const path = join(entry.parentPath, entry.name)
        const name = relative(root, path).split(sep).join("/")
        return [name, new ServedFile(path, name)] as const
      })
  )
}

const fileResponse = (file: ServedFile, acceptEncoding: string | undefined) => {
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    "cache-control": file.name.startsWith("assets/") ? IMMUTABLE : REVALIDATE
  }
  let encoding: Encoding | "identity" = "identity"
  if (file.compressible) {
    headers["vary"] = "Accept-Encoding"
    encoding = preferredEncoding(acceptEncoding) ?? "identity"
    if (encoding !== "identity") headers["content-encoding"] = encoding
  }
  return HttpServerResponse.uint8Array(file.body(encoding), {
    contentType: CONTENT_TYPES[extname(file.name)] ?? "application/octet-stream",
    headers
  })
}

/**
 * The paths of the links Wasl mails (written in core, outside /app so a link names no console
 * detail): each redirects to the same path under /app, its query (the token) kept.
 */
const MAILED_LINKS = ["/invitations/:token", "/email/confirm", "/email/verify"] as const

const toConsolePage = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
  const url = new URL(request.url, "http://wasl")
  return HttpServerResponse.redirect(`${DASHBOARD_PATH}${url.pathname}${url.search}`, { status: 302 })
})

/** The console's routes, over the files found in `root` (the build's output) when the server starts. */
export const DashboardRoute = (root: string = DASHBOARD_DIST): Layer.Layer<never, never, HttpRouter.HttpRouter> =>
  Layer.unwrap(Effect.sync(() => {
    const files = listFiles(root)
    const serve = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const pathname = new URL(request.url, "http://wasl").pathname
      const name = pathname.slice(DASHBOARD_PATH.length).replace(/^\/+/, "")
      const acceptEncoding = request.headers["accept-encoding"]
      const file = files.get(name)
      if (file !== undefined) return fileResponse(file, acceptEncoding)
      const index = files.get("index.html")
      // A missing asset is a 404, not the page: a stale page asking for an old hash must fail clearly.
      if (name.startsWith("assets/") || index === undefined) {
        return HttpServerResponse.jsonUnsafe({ message: "Not found." }, { status: 404 })
      }
      return fileResponse(index, acceptEncoding)
    })
    // With trailing slashes ignored, the wildcard route answers `/app` itself too.
    return Layer.mergeAll(
      HttpRouter.add("GET", `${DASHBOARD_PATH}/*`, serve),
      HttpRouter.add("GET", "/", HttpServerResponse.redirect(DASHBOARD_PATH, { status: 302 })),
      ...MAILED_LINKS.map((path) => HttpRouter.add("GET", path, toConsolePage))
    )
  }))
