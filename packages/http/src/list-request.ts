/**
 * What a paginated list needs from its request: the query as ordered name/value pairs (so
 * bracket notation and the page links keep the client's order) and the list's absolute URL
 * without its query, as Laravel's `$request->url()` gives it to the paginator.
 */
import { Effect, Schema } from "effect"
import { HttpServerRequest } from "effect/http"
import { type Page, paginationBody } from "@wasl/core"

export interface ListRequest {
  readonly query: ReadonlyArray<readonly [string, string]>
  readonly path: string
}

export const listRequest: Effect.Effect<ListRequest, never, HttpServerRequest.HttpServerRequest> = Effect.gen(
  function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const q = request.url.indexOf("?")
    const pathname = q === -1 ? request.url : request.url.slice(0, q)
    const search = q === -1 ? "" : request.url.slice(q + 1)
    // Behind a TLS-terminating proxy the scheme arrives in X-Forwarded-Proto; the host is the client's.
    const scheme = request.headers["x-forwarded-proto"] === "https" ? "https" : "http"
    const host = request.headers.host ?? "localhost"
    return { query: [...new URLSearchParams(search)], path: `${scheme}://${host}${pathname.replace(/\/$/, "")}` }
  }
)

/** The Laravel paginator body of a page (decisions §4) for the request it answers. */
export const paginated = <T>(request: ListRequest, page: Page<T>) =>
  paginationBody({ ...page, path: request.path, query: request.query })

const PaginationLink = Schema.Struct({ url: Schema.NullOr(Schema.String), label: Schema.String, active: Schema.Boolean })

/** `Pagination<T>` of spec 2.11. */
export const Pagination = <S extends Schema.Top>(item: S) =>
  Schema.Struct({
    data: Schema.Array(item),
    links: Schema.Struct({
      first: Schema.String,
      last: Schema.String,
      prev: Schema.NullOr(Schema.String),
      next: Schema.NullOr(Schema.String)
    }),
    meta: Schema.Struct({
      current_page: Schema.Int,
      from: Schema.NullOr(Schema.Int),
      last_page: Schema.Int,
      links: Schema.Array(PaginationLink),
      path: Schema.String,
      per_page: Schema.Int,
      to: Schema.NullOr(Schema.Int),
      total: Schema.Int
    })
  })
