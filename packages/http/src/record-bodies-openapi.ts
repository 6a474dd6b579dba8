/**
 * Record create and update bodies in the OpenAPI document name each kind's built-in properties.
 * The runtime schema of those bodies stays a free-form map (the use-case validates every value
 * against the kind's definitions, with Laravel's messages), so the document alone says which
 * built-ins a kind has and what values they take: per kind, an object of its writable built-ins
 * (`DealValues`, and `NewDealValues` with the properties a create requires), still open to custom
 * properties. Each value may be null, which clears it.
 */
import {
  BUILTIN_PROPERTIES,
  isPipelineStage,
  MAX_EMAIL_LENGTH,
  MAX_TEXT_LENGTH,
  MAX_URL_LENGTH,
  OBJECT_KINDS,
  type ObjectKind,
  optionNames,
  PIPELINE_PROPERTY,
  type PropertyDefinition,
  REQUIRED_ON_CREATE
} from "@wasl/core/Records"

/** The JSON Schema of the value a body gives a property of that definition (null aside). */
const valueSchema = (definition: PropertyDefinition): Record<string, unknown> => {
  const options = optionNames(definition)
  switch (definition.type) {
    case "number":
      return { type: "number" }
    case "boolean":
      return { type: "boolean" }
    case "date":
      return { type: "string", format: "date" }
    case "datetime":
      return { type: "string", format: "date-time" }
    case "single_select":
      // A stage is any stage of the account's pipelines: the default pipeline's as examples.
      return isPipelineStage(definition) ? { type: "string", examples: options } : { type: "string", enum: options }
    case "multi_select":
      return { type: "array", items: options.length === 0 ? { type: "string" } : { type: "string", enum: options } }
    case "email":
      return { type: "string", format: "email", maxLength: MAX_EMAIL_LENGTH }
    case "url":
      return { type: "string", format: "uri", maxLength: MAX_URL_LENGTH }
    case "phone":
      return { type: "string" }
    case "string":
    case "textarea":
      return { type: "string", maxLength: MAX_TEXT_LENGTH }
  }
}

/** What the document says of a property: its name, and for a pipeline or stage the rule it follows. */
const describe = (kind: ObjectKind, definition: PropertyDefinition): string | undefined =>
  definition.internal_name === PIPELINE_PROPERTY && (kind === "deal" || kind === "ticket")
    ? `${definition.name.en}: the _id of one of the account's ${kind} pipelines (GET /api/${kind}s/pipelines); default unless given`
    : isPipelineStage(definition)
    ? `${definition.name.en}: a stage of the record's pipeline (moving to another pipeline needs one of its stages)` +
      (kind === "ticket" ? "; a new ticket starts in its pipeline's first stage" : "")
    : definition.name.en

const title = (kind: ObjectKind) => `${kind[0]!.toUpperCase()}${kind.slice(1)}`

/** The component name of a kind's update body (`DealValues`) or create body (`NewDealValues`). */
const componentName = (kind: ObjectKind, create: boolean) => `${create ? "New" : ""}${title(kind)}Values`

const valuesSchema = (kind: ObjectKind, create: boolean): Record<string, unknown> => {
  const writable = BUILTIN_PROPERTIES[kind].filter((p) => !p.readOnly)
  const required = create ? REQUIRED_ON_CREATE[kind] : []
  return {
    type: "object",
    description: `A ${kind}'s values by internal_name: its built-in properties below, and the account's custom ` +
      `properties of the kind${required.length === 0 ? "" : ` (${required.join(", ")} required)`}. Null clears a value.`,
    ...(required.length === 0 ? {} : { required: [...required] }),
    properties: Object.fromEntries(writable.map((p) => [
      p.internal_name,
      { description: describe(kind, p), anyOf: [valueSchema(p), { type: "null" }] }
    ])),
    additionalProperties: true
  }
}

/** The body schema of the records' create (or update) operation: one of the kinds' value objects. */
const bodySchema = (create: boolean) => ({
  description: "internal_name → value; built-in and custom properties of the kind",
  anyOf: OBJECT_KINDS.map((kind) => ({ $ref: `#/components/schemas/${componentName(kind, create)}` }))
})

/**
 * Names each kind's built-in properties in the bodies of `POST /api/{kind}` and
 * `PUT /api/{kind}/{id}` (their examples kept). An `OpenApi.Transform` of `WaslApi`.
 */
export const describeRecordBodies = (document: Record<string, any>): Record<string, any> => {
  const schemas = (document["components"] ??= {})["schemas"] ??= {}
  for (const create of [true, false]) {
    for (const kind of OBJECT_KINDS) schemas[componentName(kind, create)] = valuesSchema(kind, create)
    const operation = create ? document["paths"]?.["/api/{kind}"]?.post : document["paths"]?.["/api/{kind}/{id}"]?.put
    const media = operation?.requestBody?.content?.["application/json"]
    if (media !== undefined) media.schema = bodySchema(create)
  }
  return document
}
