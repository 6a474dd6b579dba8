/**
 * The paginator body of a list (Laravel's length-aware paginator), built at the edge from a page.
 */
import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { paginationBody, type PaginationBody, type PaginationLink, urlWindow } from "../src/paginator.ts"
import type { QueryInput } from "../src/query-string.ts"

const PATH = "https://crm.test/api/deals"
const PREV = "&laquo; Previous"
const NEXT = "Next &raquo;"

const u = (page: number, query = "") => `${PATH}?${query === "" ? "" : query + "&"}page=${page}`
const pageLink = (page: number, current: number, query = ""): PaginationLink => ({
  url: u(page, query),
  label: String(page),
  active: page === current
})
const DOTS: PaginationLink = { url: null, label: "...", active: false }

/** The records 1..total, sliced as a page. */
const itemsOf = (total: number, page: number, perPage: number) => {
  const first = (page - 1) * perPage + 1
  return Array.from({ length: Math.max(0, Math.min(perPage, total - first + 1)) }, (_, i) => first + i)
}

const body = (total: number, page: number, perPage: number, query?: QueryInput) =>
  paginationBody({ items: itemsOf(total, page, perPage), total, page, perPage, path: PATH, query })

/** The numbered labels of meta.links ("..." kept), without Previous/Next. */
const labels = (b: PaginationBody<unknown>) => b.meta.links.slice(1, -1).map((l) => l.label)

describe("paginationBody: exact bodies", () => {
  it("a single page", () => {
    assert.deepStrictEqual(body(3, 1, 15), {
      data: [1, 2, 3],
      links: { first: u(1), last: u(1), prev: null, next: null },
      meta: {
        current_page: 1,
        from: 1,
        last_page: 1,
        links: [
          { url: null, label: PREV, active: false },
          pageLink(1, 1),
          { url: null, label: NEXT, active: false }
        ],
        path: PATH,
        per_page: 15,
        to: 3,
        total: 3
      }
    })
  })

  it("no records at all: one empty page, from/to null", () => {
    assert.deepStrictEqual(body(0, 1, 15), {
      data: [],
      links: { first: u(1), last: u(1), prev: null, next: null },
      meta: {
        current_page: 1,
        from: null,
        last_page: 1,
        links: [
          { url: null, label: PREV, active: false },
          pageLink(1, 1),
          { url: null, label: NEXT, active: false }
        ],
        path: PATH,
        per_page: 15,
        to: null,
        total: 0
      }
    })
  })

  it("the middle page of three", () => {
    assert.deepStrictEqual(body(25, 2, 10), {
      data: [11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
      links: { first: u(1), last: u(3), prev: u(1), next: u(3) },
      meta: {
        current_page: 2,
        from: 11,
        last_page: 3,
        links: [
          { url: u(1), label: PREV, active: false },
          pageLink(1, 2),
          pageLink(2, 2),
          pageLink(3, 2),
          { url: u(3), label: NEXT, active: false }
        ],
        path: PATH,
        per_page: 10,
        to: 20,
        total: 25
      }
    })
  })

  it("the last, partial page", () => {
    const b = body(25, 3, 10)
    assert.deepStrictEqual(b.data, [21, 22, 23, 24, 25])
    assert.deepStrictEqual(b.links, { first: u(1), last: u(3), prev: u(2), next: null })
    assert.strictEqual(b.meta.from, 21)
    assert.strictEqual(b.meta.to, 25)
    assert.deepStrictEqual(b.meta.links.at(0), { url: u(2), label: PREV, active: false })
    assert.deepStrictEqual(b.meta.links.at(-1), { url: null, label: NEXT, active: false })
  })

  it("a page past the last: empty data, prev to the page before it, no active link", () => {
    assert.deepStrictEqual(body(20, 5, 10), {
      data: [],
      links: { first: u(1), last: u(2), prev: u(4), next: null },
      meta: {
        current_page: 5,
        from: null,
        last_page: 2,
        links: [
          { url: u(4), label: PREV, active: false },
          pageLink(1, 5),
          pageLink(2, 5),
          { url: null, label: NEXT, active: false }
        ],
        path: PATH,
        per_page: 10,
        to: null,
        total: 20
      }
    })
  })

  it("many pages, first page: 1–10, …, the last two", () => {
    const b = body(300, 1, 10)
    assert.deepStrictEqual(b.meta.links, [
      { url: null, label: PREV, active: false },
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((p) => pageLink(p, 1)),
      DOTS,
      pageLink(29, 1),
      pageLink(30, 1),
      { url: u(2), label: NEXT, active: false }
    ])
    assert.deepStrictEqual(b.links, { first: u(1), last: u(30), prev: null, next: u(2) })
    assert.strictEqual(b.meta.last_page, 30)
  })

  it("many pages, middle page: 1 2 … 20–26 … 29 30", () => {
    const b = body(300, 23, 10)
    assert.deepStrictEqual(b.meta.links, [
      { url: u(22), label: PREV, active: false },
      pageLink(1, 23),
      pageLink(2, 23),
      DOTS,
      ...[20, 21, 22, 23, 24, 25, 26].map((p) => pageLink(p, 23)),
      DOTS,
      pageLink(29, 23),
      pageLink(30, 23),
      { url: u(24), label: NEXT, active: false }
    ])
    assert.deepStrictEqual(b.data, itemsOf(300, 23, 10))
    assert.strictEqual(b.meta.from, 221)
    assert.strictEqual(b.meta.to, 230)
  })

  it("many pages, last page: 1 2 … 21–30", () => {
    const b = body(300, 30, 10)
    assert.deepStrictEqual(b.meta.links, [
      { url: u(29), label: PREV, active: false },
      pageLink(1, 30),
      pageLink(2, 30),
      DOTS,
      ...[21, 22, 23, 24, 25, 26, 27, 28, 29, 30].map((p) => pageLink(p, 30)),
      { url: null, label: NEXT, active: false }
    ])
    assert.deepStrictEqual(b.links, { first: u(1), last: u(30), prev: u(29), next: null })
  })

  it("UrlWindow's boundaries: close to the beginning up to page 7, to the end from last − 6", () => {
    assert.deepStrictEqual(labels(body(300, 7, 10)), ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "...", "29", "30"])
    assert.deepStrictEqual(labels(body(300, 8, 10)), ["1", "2", "...", "5", "6", "7", "8", "9", "10", "11", "...", "29", "30"])
    assert.deepStrictEqual(labels(body(300, 23, 10)), ["1", "2", "...", "20", "21", "22", "23", "24", "25", "26", "...", "29", "30"])
    assert.deepStrictEqual(labels(body(300, 24, 10)), ["1", "2", "...", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30"])
  })

  it("13 pages are all shown; from 14 the slider starts (lastPage < onEachSide * 2 + 8)", () => {
    assert.deepStrictEqual(labels(body(130, 7, 10)), Array.from({ length: 13 }, (_, i) => String(i + 1)))
    assert.deepStrictEqual(labels(body(140, 1, 10)), ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "...", "13", "14"])
    assert.deepStrictEqual(labels(body(140, 8, 10)), ["1", "2", "...", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14"])
  })

  it("a page past the last of many pages shows the end of the range", () => {
    const b = body(300, 99, 10)
    assert.deepStrictEqual(labels(b), ["1", "2", "...", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30"])
    assert.isFalse(b.meta.links.some((l) => l.active))
    assert.strictEqual(b.links.prev, u(98))
    assert.isNull(b.links.next)
  })

  it("urlWindow reproduces UrlWindow::get", () => {
    assert.deepStrictEqual(urlWindow(1, 1), { first: [1], slider: null, last: null })
    assert.deepStrictEqual(urlWindow(15, 30), { first: [1, 2], slider: [12, 13, 14, 15, 16, 17, 18], last: [29, 30] })
  })
})

describe("paginationBody: the query in page URLs", () => {
  it("keeps the other parameters in order and puts page last, as AbstractPaginator::url does", () => {
    const b = body(300, 2, 10, [["search", "acme"], ["page", "2"], ["per_page", "10"], ["order", "amount"]])
    const q = "search=acme&per_page=10&order=amount"
    assert.deepStrictEqual(b.links, { first: u(1, q), last: u(30, q), prev: u(1, q), next: u(3, q) })
    assert.strictEqual(b.meta.links[2]!.url, u(2, q))
  })

  it("encodes values and bracket names with rawurlencode (RFC 3986)", () => {
    const b = body(5, 1, 15, [
      ["search", "Café & co/ 100%*!'()~"],
      ["complex_filters[0][property]", "deal_name"],
      ["complex_filters[0][operator]", "contains"],
      ["complex_filters[0][value]", "a+b=c"]
    ])
    assert.strictEqual(
      b.links.first,
      `${PATH}?search=Caf%C3%A9%20%26%20co%2F%20100%25%2A%21%27%28%29~` +
        "&complex_filters%5B0%5D%5Bproperty%5D=deal_name" +
        "&complex_filters%5B0%5D%5Boperator%5D=contains" +
        "&complex_filters%5B0%5D%5Bvalue%5D=a%2Bb%3Dc&page=1"
    )
  })

  it("re-indexes list brackets and nests like PHP", () => {
    const b = body(5, 1, 15, { "complex_filters[0][value][]": ["a", "b"], "complex_filters[0][property]": "tags" })
    assert.strictEqual(
      b.links.first,
      `${PATH}?complex_filters%5B0%5D%5Bvalue%5D%5B0%5D=a&complex_filters%5B0%5D%5Bvalue%5D%5B1%5D=b` +
        "&complex_filters%5B0%5D%5Bproperty%5D=tags&page=1"
    )
  })

  it("carries the query as Laravel's middleware leaves it: trimmed, empty values dropped", () => {
    const b = body(5, 1, 15, [["search", "  acme  "], ["order", ""], ["direction", "   "], ["a.b", "1"], ["x", "1"], ["x", "2"]])
    assert.strictEqual(b.links.first, u(1, "search=acme&a_b=1&x=2"))
  })

  it("renumbers integer keys (array_merge)", () => {
    const b = body(5, 1, 15, [["7", "a"], ["k", "v"], ["3", "b"]])
    assert.strictEqual(b.links.first, u(1, "0=a&k=v&1=b"))
  })

  it("trims a trailing slash from the path; a path with a query continues it with &", () => {
    assert.strictEqual(paginationBody({ items: [], total: 0, page: 1, perPage: 15, path: `${PATH}/` }).meta.path, PATH)
    assert.strictEqual(
      paginationBody({ items: [], total: 0, page: 1, perPage: 15, path: `${PATH}?x=1`, query: [["y", "2"]] }).links.first,
      `${PATH}?x=1&y=2&page=1`
    )
  })
})

const PositiveInt = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1_000_000 }))
const PerPage = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))
const Total = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 3000 }))

describe("paginationBody: properties", () => {
  it.prop("pages 1..last_page partition 1..total", [Total, PerPage], ([total, perPage]) => {
    const lastPage = Math.max(Math.ceil(total / perPage), 1)
    const seen: Array<number> = []
    let expectedFrom = 1
    for (let page = 1; page <= lastPage; page++) {
      const b = body(total, page, perPage)
      assert.strictEqual(b.meta.last_page, lastPage)
      seen.push(...b.data)
      if (b.data.length === 0) {
        assert.isNull(b.meta.from)
        assert.isNull(b.meta.to)
        continue
      }
      assert.strictEqual(b.meta.from, expectedFrom)
      assert.strictEqual(b.meta.to, expectedFrom + b.data.length - 1)
      assert.deepStrictEqual(b.data[0], b.meta.from)
      expectedFrom = b.meta.to! + 1
      assert.strictEqual(b.links.prev === null, page === 1)
      assert.strictEqual(b.links.next === null, page === lastPage)
    }
    assert.deepStrictEqual(seen, Array.from({ length: total }, (_, i) => i + 1))
    assert.strictEqual(expectedFrom - 1, total)
  })

  it.prop(
    "meta.links: Previous first, Next last, one active page when page ≤ last_page, none past it",
    [Total, PerPage, PositiveInt],
    ([total, perPage, rawPage]) => {
      const lastPage = Math.max(Math.ceil(total / perPage), 1)
      // Half of the runs land on a real page, the others anywhere.
      const page = rawPage % 2 === 0 ? (rawPage % lastPage) + 1 : rawPage
      const b = body(total, page, perPage)
      const links = b.meta.links
      assert.deepStrictEqual(links[0], { url: b.links.prev, label: PREV, active: false })
      assert.deepStrictEqual(links.at(-1), { url: b.links.next, label: NEXT, active: false })
      const pages = links.slice(1, -1)
      const active = pages.filter((l) => l.active)
      if (page <= lastPage) {
        assert.deepStrictEqual(active.map((l) => l.label), [String(page)])
      } else {
        assert.strictEqual(active.length, 0)
      }
      // At most 13 entries between them; numbered pages strictly increase, from 1 to last_page.
      assert.strictEqual(pages.length, Math.min(lastPage, 13))
      const numbers = pages.filter((l) => l.label !== "...").map((l) => Number(l.label))
      assert.strictEqual(numbers[0], 1)
      assert.strictEqual(numbers.at(-1), lastPage)
      numbers.slice(1).forEach((n, i) => assert.isTrue(n > numbers[i]!))
      for (const l of pages) {
        if (l.label === "...") assert.isNull(l.url)
        else assert.strictEqual(l.url, u(Number(l.label)))
      }
    }
  )
})
