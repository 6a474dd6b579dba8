/**
 * Answers written as JSON text by the handlers, for answers HttpApi would encode through Schema on
 * every request: `jsonResponse` for a body already in its wire form, `jsonAnswerOf(schema)` for a
 * value of a schema's Type, written straight from the schema.
 *
 * Hand-written because Effect's Schema JIT compiles structs, arrays and literal unions but leaves
 * every transformation to the interpreter, and an answer is full of them: each of the twenty-odd
 * wire timestamps of `GET /api/me` went through Schema's parser with an Effect per value. Written
 * from the schema instead, the server's CPU per `GET /api/me` fell from 448–478 µs to 401–402 µs
 * (alternating runs, bench/README.md).
 *
 * `jsonWriterOf(schema)` walks the schema's AST once and makes a function from the schema's Type
 * to the JSON value of its encoding, keys in the same order. It covers what the answers use:
 * structs of fixed keys (an optional one left out when absent), arrays, unions whose members but
 * one are `null`, literals or primitive keywords, primitives, and transformations whose encoding
 * is a plain function (`SchemaGetter.transform`, as `WireTimestamp`'s). For any other shape it
 * answers undefined, and `jsonAnswerOf` encodes through Schema. It does not validate: the values
 * come from the use cases, typed by the same schemas; tests hold the bytes to Schema's encoding
 * over generated values.
 *
 * @module
 */
import { Schema, type SchemaAST } from "effect"
import { HttpServerResponse } from "effect/http"

type Write = (value: unknown) => unknown

const identity: Write = (value) => value

/** The type guard of a union member written as it is (null, a literal, a primitive), or undefined for any other. */
const plainGuardOf = (ast: SchemaAST.AST): ((value: unknown) => boolean) | undefined => {
  if (ast.encoding !== undefined) return undefined
  switch (ast._tag) {
    case "Null":
      return (value) => value === null
    case "Literal":
      return (value) => value === ast.literal
    case "String":
      return (value) => typeof value === "string"
    case "Number":
      return (value) => typeof value === "number"
    case "Boolean":
      return (value) => typeof value === "boolean"
    default:
      return undefined
  }
}

const writerOf = (ast: SchemaAST.AST): Write | undefined => {
  if (ast.encoding !== undefined) {
    if (ast.encoding.length !== 1) return undefined
    const [link] = ast.encoding
    const transformation = link!.transformation
    if (transformation._tag !== "Transformation" || transformation.encode._tag !== "Transform") return undefined
    const encode = transformation.encode.transform
    const next = writerOf(link!.to)
    return next === undefined ? undefined : next === identity ? encode : (value) => next(encode(value))
  }
  switch (ast._tag) {
    case "Null":
    case "Literal":
    case "String":
    case "Number":
    case "Boolean":
      return identity
    case "Arrays": {
      if (ast.elements.length !== 0 || ast.rest.length !== 1) return undefined
      const item = writerOf(ast.rest[0]!)
      return item === undefined ? undefined : item === identity ? identity : (value) => (value as ReadonlyArray<unknown>).map(item)
    }
    case "Objects": {
      if (ast.indexSignatures.length !== 0) return undefined
      const properties: Array<{ readonly name: string; readonly write: Write; readonly optional: boolean }> = []
      for (const property of ast.propertySignatures) {
        const write = writerOf(property.type)
        if (typeof property.name !== "string" || property.name === "__proto__" || write === undefined) return undefined
        properties.push({ name: property.name, write, optional: property.type.context?.isOptional === true })
      }
      return (value) => {
        const source = value as Readonly<Record<string, unknown>>
        const out: Record<string, unknown> = {}
        for (const { name, optional, write } of properties) {
          if (!optional || Object.hasOwn(source, name)) out[name] = write(source[name])
        }
        return out
      }
    }
    case "Union": {
      const guards: Array<(value: unknown) => boolean> = []
      const others: Array<SchemaAST.AST> = []
      for (const member of ast.types) {
        const guard = plainGuardOf(member)
        if (guard === undefined) others.push(member)
        else guards.push(guard)
      }
      if (others.length === 0) return identity
      if (others.length !== 1) return undefined
      const write = writerOf(others[0]!)
      if (write === undefined) return undefined
      return (value) => (guards.some((guard) => guard(value)) ? value : write(value))
    }
    default:
      return undefined
  }
}

/**
 * The JSON value `schema`'s encoding gives for a value of its Type, written directly; undefined
 * when the schema holds a shape this writer does not cover.
 */
export const jsonWriterOf = <S extends Schema.Top>(schema: S): ((value: S["Type"]) => unknown) | undefined =>
  writerOf(schema.ast)

/** `body`, already in its wire form, as a JSON answer (200 unless told). */
export const jsonResponse = (body: unknown, status = 200): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.text(JSON.stringify(body), { status, contentType: "application/json" })

/**
 * The answer of a value of `schema`'s Type, the text HttpApi's encoding would send: written by
 * {@link jsonWriterOf} when it covers the schema, else encoded through Schema as HttpApi does.
 */
export const jsonAnswerOf = <S extends Schema.Codec<unknown, unknown, never, never>>(
  schema: S
): (value: S["Type"], status?: number) => HttpServerResponse.HttpServerResponse => {
  const write = jsonWriterOf(schema) ?? Schema.encodeSync(schema)
  return (value, status) => jsonResponse(write(value), status)
}
