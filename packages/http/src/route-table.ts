/** Which paths exist and with which methods, so a wrong method answers 405 rather than 404. */
import { HttpApi, type HttpApiGroup } from "effect/http-api"

/**
 * The longest path parameter the router takes, in characters once decoded (find-my-way's default,
 * set in `waslRouterConfig`); a longer one is no route.
 */
export const MAX_PARAM_LENGTH = 100

/** The paths and methods of an API's routes. */
export interface RouteTable {
  /** The methods allowed on the path (HEAD wherever GET is), or an empty list when no route has that path. */
  readonly methodsFor: (path: string) => ReadonlyArray<string>
}

/** The values a path parameter can take, where it is a closed set (`:kind` is one of the six object paths). */
export type SegmentValues = Readonly<Record<string, ReadonlyArray<string>>>

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const toPattern = (path: string, segments: SegmentValues): RegExp =>
  new RegExp(`^${
    path.replace(/\/$/, "").replace(/:([A-Za-z_]+)/g, (_, name: string) => {
      const values = segments[name]
      return values === undefined ? "([^/]+)" : `(?:${values.map(escape).join("|")})`
    })
  }/?$`)

const decoded = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}

/**
 * Whether the router can route the path at all: it refuses a path whose percent-escapes do not
 * decode (`%zz`, `%FF`, a lone surrogate's `%ED%A0%80`), whatever the method, so such a path is
 * no route (404), not a path with other methods (405).
 */
const isRoutable = (path: string): boolean => decoded(path) !== undefined

/** Whether every parameter the pattern captured is within the router's length limit. */
const paramsFit = (match: RegExpExecArray): boolean =>
  match.slice(1).every((param) => param === undefined || (decoded(param)?.length ?? Infinity) <= MAX_PARAM_LENGTH)

/** The route table of an API: `segments` closes the parameters whose values form a fixed set. */
export const routeTableOf = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>,
  segments: SegmentValues = {}
): RouteTable => {
  const routes: Array<{ pattern: RegExp; method: string }> = []
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => routes.push({ pattern: toPattern(endpoint.path, segments), method: endpoint.method })
  })
  return {
    methodsFor: (path) => {
      if (!isRoutable(path)) return []
      const matching = routes.filter((r) => {
        const match = r.pattern.exec(path)
        return match !== null && paramsFit(match)
      })
      const methods = new Set(matching.map((r) => r.method))
      // The router answers HEAD with the GET route, without its body.
      if (methods.has("GET")) methods.add("HEAD")
      return [...methods]
    }
  }
}
