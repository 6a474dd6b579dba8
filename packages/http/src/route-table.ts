/** Which paths exist and with which methods, so a wrong method answers 405 rather than 404. */
import { HttpApi, type HttpApiGroup } from "effect/http-api"

/** The paths and methods of an API's routes. */
export interface RouteTable {
  /** The methods allowed on the path, or an empty list when no route has that path. */
  readonly methodsFor: (path: string) => ReadonlyArray<string>
}

/** The values a path parameter can take, where it is a closed set (`:kind` is one of the six object paths). */
export type SegmentValues = Readonly<Record<string, ReadonlyArray<string>>>

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const toPattern = (path: string, segments: SegmentValues): RegExp =>
  new RegExp(`^${
    path.replace(/\/$/, "").replace(/:([A-Za-z_]+)/g, (_, name: string) => {
      const values = segments[name]
      return values === undefined ? "[^/]+" : `(?:${values.map(escape).join("|")})`
    })
  }/?$`)

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
    methodsFor: (path) => [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))]
  }
}
