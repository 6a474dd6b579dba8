/** The operations of Wasl's served OpenAPI document, as the HTTP fuzz reads them. */

/** A JSON Schema node of the document (only the keywords the generator reads). */
export interface JsonSchema {
  readonly $ref?: string
  readonly type?: string
  readonly enum?: ReadonlyArray<unknown>
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly required?: ReadonlyArray<string>
  readonly items?: JsonSchema
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly minLength?: number
  readonly maxLength?: number
  readonly minItems?: number
  readonly maxItems?: number
  readonly minimum?: number
  readonly maximum?: number
}

/** One operation of the API as the fuzz sends it. */
export interface Operation {
  /** The operationId (`records.create`). */
  readonly id: string
  readonly method: string
  /** The path template (`/api/{kind}/{id}`). */
  readonly template: string
  /** The values a path parameter is limited to (`kind`), by name. */
  readonly enums: Readonly<Record<string, ReadonlyArray<string>>>
  readonly body: JsonSchema | undefined
  /** Whether the operation needs credentials. */
  readonly secured: boolean
  /** Whether it answers a paginated list (and so reads page, per_page, search, order, ...). */
  readonly paginated: boolean
}

/** The parts of an OpenAPI document the fuzz reads. */
export interface OpenApiDocument {
  readonly paths: Record<string, Record<string, any>>
  readonly components: { readonly schemas: Record<string, JsonSchema> }
}

/** The operations of a served OpenAPI document. */
export const operationsOf = (document: OpenApiDocument): ReadonlyArray<Operation> => {
  const resolve = (schema: JsonSchema | undefined): JsonSchema | undefined =>
    schema?.$ref === undefined ? schema : document.components.schemas[schema.$ref.split("/").pop()!]
  return Object.entries(document.paths).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([method, op]) => method !== "parameters" && typeof op === "object" && !Array.isArray(op))
      .map(([method, op]): Operation => {
        const enums: Record<string, ReadonlyArray<string>> = {}
        for (const parameter of op.parameters ?? []) {
          const values = resolve(parameter.schema)?.enum
          if (parameter.in === "path" && values !== undefined) enums[parameter.name] = values as Array<string>
        }
        const success = op.responses?.["200"]?.content?.["application/json"]?.schema
        return {
          id: op.operationId,
          method: method.toUpperCase(),
          template,
          enums,
          body: op.requestBody?.content?.["application/json"]?.schema,
          secured: (op.security ?? []).length > 0,
          paginated: success?.properties?.meta !== undefined && success?.properties?.links !== undefined
        }
      })
  )
}

/** The value lists of the document the bodies draw from: webhook event names, notification names. */
export interface DocumentEnums {
  readonly events: ReadonlyArray<string>
  readonly notifications: ReadonlyArray<string>
}

/** The value lists of a served OpenAPI document. */
export const enumsOf = (document: OpenApiDocument): DocumentEnums => {
  const schemas = document.components.schemas as Record<string, any>
  return { events: schemas["EventName"].enum, notifications: schemas["NotificationPreference"].properties.name.enum }
}
