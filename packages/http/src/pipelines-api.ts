/** Pipelines of deals and tickets: `/api/{deals|tickets}/pipelines`. */
import { Schema, SchemaGetter } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { DEFAULT_PIPELINE_ID, MAX_PIPELINE_STAGES, type PipelineKind, PipelineStage, LocalizedText } from "@wasl/core/Records"
import { RecordId } from "@wasl/core/Wire"
import { type AuthenticatedGroup, commonErrors, DataAnswer, DataMessageAnswer, type WaslEndpoint } from "./endpoint-types.ts"
import { DeletedAnswer } from "./deleted-answer.ts"
import { query, withQueryParameters } from "./list-query-openapi.ts"
import { Authentication } from "./security.ts"

/** `:kind` of the pipelines endpoints: `deals` or `tickets`, decoded to the kind; any other segment is no route. */
export const PipelineKindFromPath: Schema.decodeTo<Schema.Literals<readonly ["deal", "ticket"]>, Schema.Literals<readonly ["deals", "tickets"]>> =
  Schema.Literals(["deals", "tickets"]).pipe(
    Schema.decodeTo(Schema.Literals(["deal", "ticket"]), {
      decode: SchemaGetter.transform((path: "deals" | "tickets"): PipelineKind => path === "deals" ? "deal" : "ticket"),
      encode: SchemaGetter.transform((kind: PipelineKind): "deals" | "tickets" => kind === "deal" ? "deals" : "tickets")
    })
  )

/** `:id` of a pipeline: `default` (the kind's built-in one) or a record id. */
export const PipelineId: Schema.Union<readonly [Schema.Literal<"default">, typeof RecordId]> = Schema.Union([
  Schema.Literal(DEFAULT_PIPELINE_ID),
  RecordId
])

const kindParams: { readonly kind: typeof PipelineKindFromPath } = { kind: PipelineKindFromPath }
const pipelineParams: { readonly kind: typeof PipelineKindFromPath; readonly id: typeof PipelineId } = {
  kind: PipelineKindFromPath,
  id: PipelineId
}
/** The path parameter `:kind` of the pipelines endpoints, as an endpoint's type carries it. */
export type PipelineKindParams = Schema.toCodecStringTree<Schema.Struct<{ kind: typeof PipelineKindFromPath }>>
/** The path parameters `:kind/:id` of a pipeline, as an endpoint's type carries them. */
export type PipelineParams = Schema.toCodecStringTree<
  Schema.Struct<{ kind: typeof PipelineKindFromPath; id: typeof PipelineId }>
>

/** A pipeline as the endpoints answer it. */
export const PipelineView: Schema.Struct<{
  readonly _id: Schema.String
  readonly account_id: Schema.NullOr<Schema.Int>
  readonly name: typeof LocalizedText
  readonly stages: Schema.$Array<typeof PipelineStage>
  readonly created_at: Schema.NullOr<Schema.String>
  readonly updated_at: Schema.NullOr<Schema.String>
}> = Schema.Struct({
  _id: Schema.String,
  account_id: Schema.NullOr(Schema.Int),
  name: LocalizedText,
  stages: Schema.Array(PipelineStage),
  created_at: Schema.NullOr(Schema.String),
  updated_at: Schema.NullOr(Schema.String)
}).annotate({
  identifier: "Pipeline",
  description: "A pipeline: _id (default for the built-in one), name {en, ar}, the stages in order; " +
    "account_id and the timestamps are null for the built-in one until the account changes it"
})

/** The body of a pipeline create or update. Validated by the use-case with Laravel's messages. */
export const PipelineBody: Schema.$Record<Schema.String, Schema.Unknown> = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: `name {en, ar}; stages (1 to ${MAX_PIPELINE_STAGES}, in order): internal_name (a-z, 0-9, _; unique among the kind's ` +
    "pipelines), name {en, ar}, closed, and for deals probability (0 to 1, required) and won (only on a closed stage); " +
    "on an update, move_to: the stage the records of removed stages move to"
})

/** `GET /api/:kind/pipelines`. */
export const ListPipelinesEndpoint: WaslEndpoint<"list", "GET", "/:kind/pipelines", {
  params: PipelineKindParams; success: DataAnswer<Schema.$Array<typeof PipelineView>>
}> = HttpApiEndpoint.get("list", "/:kind/pipelines", {
  params: kindParams,
  success: DataAnswer(Schema.Array(PipelineView)),
  error: commonErrors
}).annotate(OpenApi.Summary, "List pipelines").annotate(
  OpenApi.Description,
  "The kind's pipelines: the default one first (_id default), then the account's, oldest first. Permission <kind>-index or property-manage."
)

/** `POST /api/:kind/pipelines`. */
export const CreatePipelineEndpoint: WaslEndpoint<"create", "POST", "/:kind/pipelines", {
  params: PipelineKindParams; payload: typeof PipelineBody; success: DataMessageAnswer<typeof PipelineView>
}> = HttpApiEndpoint.post("create", "/:kind/pipelines", {
  params: kindParams,
  payload: PipelineBody,
  success: DataMessageAnswer(PipelineView).pipe(HttpApiSchema.status(201)),
  error: commonErrors
}).annotate(OpenApi.Summary, "Create a pipeline").annotate(
  OpenApi.Description,
  "Creates a pipeline with its stages, in order. A stage's internal_name is what records hold in deal_stage or ticket_stage. Permission property-manage."
)

/** `GET /api/:kind/pipelines/:id`. */
export const ShowPipelineEndpoint: WaslEndpoint<"show", "GET", "/:kind/pipelines/:id", {
  params: PipelineParams; success: DataAnswer<typeof PipelineView>
}> = HttpApiEndpoint.get("show", "/:kind/pipelines/:id", {
  params: pipelineParams,
  success: DataAnswer(PipelineView),
  error: commonErrors
}).annotate(OpenApi.Summary, "Show a pipeline").annotate(
  OpenApi.Description,
  "One pipeline (default: the kind's default one). Permission <kind>-index or property-manage."
)

/** `PUT /api/:kind/pipelines/:id`. */
export const UpdatePipelineEndpoint: WaslEndpoint<"update", "PUT", "/:kind/pipelines/:id", {
  params: PipelineParams; payload: typeof PipelineBody; success: DataMessageAnswer<typeof PipelineView>
}> = HttpApiEndpoint.put("update", "/:kind/pipelines/:id", {
  params: pipelineParams,
  payload: PipelineBody,
  success: DataMessageAnswer(PipelineView),
  error: commonErrors
}).annotate(OpenApi.Summary, "Update a pipeline").annotate(
  OpenApi.Description,
  "Replaces the name and the stages (the default pipeline's too). Renaming, reordering and adding stages keep every record. " +
    "Removing a stage that records are in is a 422 on stages unless move_to names the stage (of any pipeline of the kind) " +
    "they move to, each with its -updated event. Permission property-manage."
)

/** `DELETE /api/:kind/pipelines/:id`. */
export const DeletePipelineEndpoint: WaslEndpoint<"delete", "DELETE", "/:kind/pipelines/:id", {
  params: PipelineParams; success: typeof DeletedAnswer
}> = HttpApiEndpoint.delete("delete", "/:kind/pipelines/:id", {
  params: pipelineParams,
  success: DeletedAnswer,
  error: commonErrors
}).annotate(OpenApi.Summary, "Delete a pipeline").annotate(
  OpenApi.Description,
  "Deletes the pipeline. One that records are in is a 422 on _id unless the query's move_to names a stage of another " +
    "pipeline they move to, each with its -updated event. The default pipeline cannot be deleted (403). Permission property-manage."
).annotate(
  OpenApi.Transform,
  withQueryParameters([query("move_to", "The stage (of another pipeline) the pipeline's records move to.", { type: "string" })])
)

const PipelinesGroupBase: AuthenticatedGroup<
  "pipelines",
  | typeof ListPipelinesEndpoint
  | typeof CreatePipelineEndpoint
  | typeof ShowPipelineEndpoint
  | typeof UpdatePipelineEndpoint
  | typeof DeletePipelineEndpoint
> = HttpApiGroup.make("pipelines")
  .add(ListPipelinesEndpoint)
  .add(CreatePipelineEndpoint)
  .add(ShowPipelineEndpoint)
  .add(UpdatePipelineEndpoint)
  .add(DeletePipelineEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "The pipelines of deals and tickets: the stages a record moves through (deal_stage, ticket_stage), in order. " +
      "Every deal and ticket is in one pipeline (its pipeline property, default unless told) and its stage is one of that pipeline's."
  )

/**
 * The pipelines of deals and tickets (`/api/{deals|tickets}/pipelines`). Reading needs the kind's
 * index permission or property-manage; writing needs property-manage.
 */
export class PipelinesGroup extends PipelinesGroupBase {}
