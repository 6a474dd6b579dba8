/**
 * The dashboard's HTTP client: openapi-fetch over the types generated from Wasl's OpenAPI
 * document, on the same origin with the session cookie. Every request carries
 * `X-Requested-With: XMLHttpRequest`, the header a session needs to change state.
 */
import createClient from "openapi-fetch"
import type { components, paths } from "./schema"

/** The API's named shapes (`Schemas["Webhook"]`, ...). */
export type Schemas = components["schemas"]

/** An object kind's path segment: contacts, companies, deals, tickets, invoices, products. */
export type Kind = Schemas["ObjectPath"]

// complex_filters nests (conditions inside `or` groups), so objects go as one JSON value.
const querySerializer = (query: Record<string, unknown>): string =>
  new URLSearchParams(
    Object.entries(query)
      .filter(([, value]) => value !== undefined && value !== "")
      .map(([key, value]) => [key, typeof value === "object" ? JSON.stringify(value) : String(value)])
  ).toString()

export const api = createClient<paths>({
  baseUrl: window.location.origin,
  headers: { Accept: "application/json", "X-Requested-With": "XMLHttpRequest" },
  querySerializer
})

/** Raised on `window` when the API answers 401: the session ended (expired, or signed out elsewhere). */
export const SIGNED_OUT_EVENT = "wasl:signed-out"

api.use({
  onResponse: ({ response }) => {
    if (response.status === 401) window.dispatchEvent(new Event(SIGNED_OUT_EVENT))
    return undefined
  }
})
