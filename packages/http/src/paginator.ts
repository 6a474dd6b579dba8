/**
 * The body Laravel's length-aware paginator writes through an API resource collection for a page
 * of a list — `data`, `links` and `meta` as `LengthAwarePaginator::toArray()` (Laravel 10/11,
 * `onEachSide = 3`) produces them, with the request's query carried into every page URL
 * (`withQueryString()`). The wire format of a list, built here at the edge from the core's `Page`.
 */
import { lastPageOf, type Page } from "@wasl/core/Records"
import { buildPhpQuery, cleanLikeLaravel, emptyPhpArray, parsePhpQuery, phpIntegerKey, type QueryInput } from "./query-string.ts"

/** The paginator's `onEachSide`: pages shown either side of the current one in `meta.links`. */
export const PAGINATION_ON_EACH_SIDE = 3

/** The label of the "previous page" entry of `meta.links` (HTML-escaped, as Laravel writes it). */
export const PREVIOUS_LABEL = "&laquo; Previous"
/** The label of the "next page" entry of `meta.links` (HTML-escaped, as Laravel writes it). */
export const NEXT_LABEL = "Next &raquo;"

/** One entry of a list body's `meta.links`: a page number, `...`, or the previous / next link. */
export interface PaginationLink {
  /** The page's URL; null for `...` and for a previous / next link that leads nowhere. */
  readonly url: string | null
  /** The text shown: a page number, `...`, `PREVIOUS_LABEL` or `NEXT_LABEL`. */
  readonly label: string
  /** Whether this is the current page. */
  readonly active: boolean
}

/** The JSON body of a list response, as Laravel's paginated API resource collection writes it. */
export interface PaginationBody<T> {
  /** The items of the page. */
  readonly data: ReadonlyArray<T>
  /** The URLs of the first, last, previous and next pages (null when there is none). */
  readonly links: {
    readonly first: string
    readonly last: string
    readonly prev: string | null
    readonly next: string | null
  }
  /**
   * Where the page lies: its number, the 1-based positions of its first and last items (`from`,
   * `to`, null when empty), the last page, the page links, the list's URL, the page size and the
   * total number of items.
   */
  readonly meta: {
    readonly current_page: number
    readonly from: number | null
    readonly last_page: number
    readonly links: ReadonlyArray<PaginationLink>
    readonly path: string
    readonly per_page: number
    readonly to: number | null
    readonly total: number
  }
}

/** What `paginationBody` needs: a page, the list's URL and the request's query. */
export interface PaginationInput<T> extends Page<T> {
  /** The absolute URL of the list without its query, e.g. `https://host/api/deals`. */
  readonly path: string
  /** The request's query; carried into every page URL with `page` replaced. */
  readonly query?: QueryInput | undefined
}

/**
 * The query every page URL carries: the request query as Laravel's middleware left it, without
 * `page` (`addQuery` skips the page name), top-level integer keys renumbered from 0
 * (`array_merge`).
 */
const linkQuery = (query: QueryInput): string => {
  const cleaned = cleanLikeLaravel(parsePhpQuery(query))
  const merged = emptyPhpArray()
  let next = 0
  for (const [key, value] of cleaned.entries) {
    if (key === "page") continue
    if (phpIntegerKey(key) !== undefined) merged.entries.set(String(next++), value)
    else merged.entries.set(key, value)
  }
  return buildPhpQuery(merged)
}

/** `AbstractPaginator::url`: `page` always comes last, after the carried query. */
const pageUrlMaker = (path: string, query: QueryInput) => {
  const carried = linkQuery(query)
  const prefix = path + (path.includes("?") ? "&" : "?") + (carried === "" ? "" : carried + "&") + "page="
  return (page: number): string => prefix + String(page <= 0 ? 1 : page)
}

const range = (start: number, end: number): Array<number> => {
  const pages: Array<number> = []
  for (let p = start; p <= end; p++) pages.push(p)
  return pages
}

/**
 * The page numbers a paginator shows, in up to three runs: the first pages, a slider around the
 * current page, the last pages (null: that run is not shown).
 */
export type UrlWindow = {
  readonly first: ReadonlyArray<number> | null
  readonly slider: ReadonlyArray<number> | null
  readonly last: ReadonlyArray<number> | null
}

/** `UrlWindow::get`, with page numbers in place of the URL maps. */
export const urlWindow = (
  currentPage: number,
  lastPage: number,
  onEachSide: number = PAGINATION_ON_EACH_SIDE
): UrlWindow => {
  if (lastPage < onEachSide * 2 + 8) return { first: range(1, lastPage), slider: null, last: null }
  const window = onEachSide + 4
  if (!(lastPage > 1)) return { first: null, slider: null, last: null }
  const start = range(1, 2)
  const finish = range(lastPage - 1, lastPage)
  // Close to the beginning: the first pages, then the last two.
  if (currentPage <= window) return { first: range(1, window + onEachSide), slider: null, last: finish }
  // Close to the end: the first two, then a larger run of the last pages.
  if (currentPage > lastPage - window) {
    return { first: start, slider: null, last: range(lastPage - (window + (onEachSide - 1)), lastPage) }
  }
  // A full slider: both caps and the pages around the current one.
  return { first: start, slider: range(currentPage - onEachSide, currentPage + onEachSide), last: finish }
}

/** `LengthAwarePaginator::elements`: the window's ranges with `"..."` between them. */
export const paginationElements = (
  currentPage: number,
  lastPage: number,
  onEachSide: number = PAGINATION_ON_EACH_SIDE
): ReadonlyArray<ReadonlyArray<number> | "..."> => {
  const w = urlWindow(currentPage, lastPage, onEachSide)
  // array_filter drops the nulls (and would drop empty ranges; none occur).
  return [w.first, w.slider !== null ? "..." : null, w.slider, w.last !== null ? "..." : null, w.last].filter(
    (e): e is ReadonlyArray<number> | "..." => e !== null && (e === "..." || e.length > 0)
  )
}

/**
 * The JSON body of a list response for one page. `prev` points at page - 1 whenever page > 1 (even
 * past the last page, as Laravel does); `next` exists while page < last_page; `from`/`to` are the
 * 1-based positions of the page's first and last item, null when the page holds none.
 */
export const paginationBody = <T>(input: PaginationInput<T>): PaginationBody<T> => {
  const { items, page, perPage, total } = input
  // The paginator trims trailing slashes from the path (except a lone "/").
  const path = input.path !== "/" ? input.path.replace(/\/+$/, "") : input.path
  const url = pageUrlMaker(path, input.query ?? [])
  const lastPage = lastPageOf(total, perPage)
  const prev = page > 1 ? url(page - 1) : null
  const next = page < lastPage ? url(page + 1) : null
  const from = items.length > 0 ? (page - 1) * perPage + 1 : null
  const to = from !== null ? from + items.length - 1 : null

  const pageLinks = paginationElements(page, lastPage).flatMap((element): Array<PaginationLink> =>
    element === "..."
      ? [{ url: null, label: "...", active: false }]
      : element.map((p) => ({ url: url(p), label: String(p), active: p === page }))
  )

  return {
    data: items,
    links: { first: url(1), last: url(lastPage), prev, next },
    meta: {
      current_page: page,
      from,
      last_page: lastPage,
      links: [
        { url: prev, label: PREVIOUS_LABEL, active: false },
        ...pageLinks,
        { url: next, label: NEXT_LABEL, active: false }
      ],
      path,
      per_page: perPage,
      to,
      total
    }
  }
}
