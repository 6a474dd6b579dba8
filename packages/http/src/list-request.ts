/**
 * What a paginated list needs from its request: the query as ordered name/value pairs (so
 * bracket notation and the page links keep the client's order), the same query parsed into the
 * list's parameters for the use-case, and the list's absolute URL without its query, as Laravel's
 * `$request->url()` gives it to the paginator.
 */
import { Effect, Schema } from "effect"
import { HttpServerRequest } from "effect/http"
import type { ListQueryInput, Page } from "@wasl/core/Records"
import { type PaginationBody, paginationBody } from "./paginator.ts"
import { parseListQuery } from "./query-string.ts"
import { linkBase } from "./request-origin.ts"

/** The parts of a list request its paginated answer is made from. */
export interface ListRequest {
  /** The query string as name/value pairs, in the client's order. */
  readonly query: ReadonlyArray<readonly [string, string]>
  /** The query parsed the way Laravel reads it: the parameters the list use-cases take. */
  readonly input: ListQueryInput
  /** The list's absolute URL without its query: on the public URL, else on the request's scheme and Host. */
  readonly path: string
}

/** The list request being answered. */
export const listRequest: Effect.Effect<ListRequest, never, HttpServerRequest.HttpServerRequest> = Effect.gen(
  function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const q = request.url.indexOf("?")
    const pathname = q === -1 ? request.url : request.url.slice(0, q)
    const search = q === -1 ? "" : request.url.slice(q + 1)
    const query = [...new URLSearchParams(search)]
    return { query, input: parseListQuery(query), path: `${yield* linkBase(request)}${pathname.replace(/\/$/, "")}` }
  }
)

/** The Laravel paginator body of a page, its links made for the request it answers. */
export const paginated = <T>(request: ListRequest, page: Page<T>): PaginationBody<T> =>
  paginationBody({ ...page, path: request.path, query: request.query })

const PaginationLink = Schema.Struct({ url: Schema.NullOr(Schema.String), label: Schema.String, active: Schema.Boolean })

/**
 * The schema of a Laravel paginator body over items of `S`: the page's `data`, the `links` to the
 * first, last, previous and next pages, and the `meta` (current and last page, the range shown,
 * the page size, the total and the numbered page links).
 */
export type Pagination<S extends Schema.Top> = Schema.Struct<{
  readonly data: Schema.$Array<S>
  readonly links: Schema.Struct<{
    readonly first: Schema.String
    readonly last: Schema.String
    readonly prev: Schema.NullOr<Schema.String>
    readonly next: Schema.NullOr<Schema.String>
  }>
  readonly meta: Schema.Struct<{
    readonly current_page: Schema.Int
    readonly from: Schema.NullOr<Schema.Int>
    readonly last_page: Schema.Int
    readonly links: Schema.$Array<
      Schema.Struct<{ readonly url: Schema.NullOr<Schema.String>; readonly label: Schema.String; readonly active: Schema.Boolean }>
    >
    readonly path: Schema.String
    readonly per_page: Schema.Int
    readonly to: Schema.NullOr<Schema.Int>
    readonly total: Schema.Int
  }>
}>

/** The paginator body over items of the given schema (see the `Pagination` type). */
export const Pagination = <S extends Schema.Top>(item: S): Pagination<S> =>
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
