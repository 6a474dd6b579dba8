/**
 * The probes of an orchestrator or load balancer: `GET /health/live` (the process answers) and
 * `GET /health/ready` (it can serve: its database answers and is migrated). No authentication, no
 * rate limit, and a body that says only `ok` or `unavailable`: nothing about versions, hosts or
 * errors reaches an unauthenticated caller (the reason goes to the log).
 */
import { type Cause, Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import type { WaslEndpoint } from "./endpoint-types.ts"

/** The body of a healthy probe: `{"status":"ok"}`. */
export const HealthOk: Schema.Struct<{ readonly status: Schema.Literal<"ok"> }> = Schema.Struct({
  status: Schema.Literal("ok")
})

const Unavailable503Base: Schema.Class<
  Unavailable503,
  Schema.Struct<{ readonly status: Schema.Literal<"unavailable"> }>,
  Cause.YieldableError
> = Schema.Error<Unavailable503>("Unavailable503")({ status: Schema.Literal("unavailable") }, {
  httpApiStatus: 503,
  description: "Not ready: the database does not answer, or is not migrated to this version."
})
/** 503 `{"status":"unavailable"}`: the process cannot serve requests now. */
export class Unavailable503 extends Unavailable503Base {}

/** `GET /health/live`: 200 `{"status":"ok"}` whenever the process answers. */
export const LiveEndpoint: WaslEndpoint<"live", "GET", "/health/live", {
  success: typeof HealthOk; error: never
}> = HttpApiEndpoint.get("live", "/health/live", { success: HealthOk }).annotate(OpenApi.Summary, "Liveness probe").annotate(
  OpenApi.Description,
  "Liveness: 200 {\"status\":\"ok\"} whenever the process answers. No authentication, no rate limit."
)

/** `GET /health/ready`: 200 `{"status":"ok"}` when the database answers and is migrated, else 503. */
export const ReadyEndpoint: WaslEndpoint<"ready", "GET", "/health/ready", {
  success: typeof HealthOk; error: typeof Unavailable503
}> = HttpApiEndpoint.get("ready", "/health/ready", { success: HealthOk, error: Unavailable503 }).annotate(
  OpenApi.Summary,
  "Readiness probe"
).annotate(
  OpenApi.Description,
  "Readiness: 200 {\"status\":\"ok\"} when the database answers and every migration of this version is applied, else 503 {\"status\":\"unavailable\"}. No authentication, no rate limit."
)

const HealthGroupBase: HttpApiGroup.HttpApiGroup<"health", typeof LiveEndpoint | typeof ReadyEndpoint> =
  HttpApiGroup.make("health").add(LiveEndpoint).add(ReadyEndpoint).annotate(
    OpenApi.Description,
    "Probes for an orchestrator or a load balancer: is the process up, and can it serve requests now. No authentication, no rate limit."
  )

/** The health probes: `GET /health/live` and `GET /health/ready`, outside `/api` and without authentication. */
export class HealthGroup extends HealthGroupBase {}
