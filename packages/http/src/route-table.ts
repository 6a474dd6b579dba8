/** Which paths exist and with which methods, so a wrong method answers 405 rather than 404. */
import { HttpApi, type HttpApiGroup } from "effect/http-api"

export interface RouteTable {
  /** The methods allowed on the path, or an empty list when no route has that path. */
  readonly methodsFor: (path: string) => ReadonlyArray<string>
}

const toPattern = (path: string): RegExp =>
  new RegExp(`^${path.replace(/\/$/, "").replace(/:[A-Za-z_]+/g, "[^/]+")}/?$`)

export const routeTableOf = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
): RouteTable => {
  const routes: Array<{ pattern: RegExp; method: string }> = []
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => routes.push({ pattern: toPattern(endpoint.path), method: endpoint.method })
  })
  return {
    methodsFor: (path) => [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))]
  }
}
