/**
 * Free-form objects in the OpenAPI document say so. Effect writes a `Record<string, unknown>` (the
 * request bodies the use-cases validate themselves, a notification's data) as `{ "type": "object" }`,
 * which JSON Schema reads as "any properties" but code generators as "no properties"
 * (openapi-typescript makes it `Record<string, never>`, so a client could send no body at all).
 */

const EXAMPLES = new Set(["example", "examples"])

/** Whether a schema is an object schema that names no properties and says nothing of the others. */
const isBareObject = (node: Record<string, unknown>) =>
  node["type"] === "object" && !("properties" in node) && !("additionalProperties" in node) && !("patternProperties" in node)

const open = (node: unknown): void => {
  if (Array.isArray(node)) return node.forEach(open)
  if (typeof node !== "object" || node === null) return
  const record = node as Record<string, unknown>
  if (isBareObject(record)) record["additionalProperties"] = true
  for (const [key, value] of Object.entries(record)) if (!EXAMPLES.has(key)) open(value)
}

/**
 * Marks every object schema of the document that names no properties as taking any
 * (`additionalProperties: true`); examples are left as they are. An `OpenApi.Transform` of `WaslApi`.
 */
export const declareFreeFormObjects = (document: Record<string, any>): Record<string, any> => {
  open(document)
  return document
}
