/**
 * Schema issues rendered as Laravel validation errors: dot-notation keys
 * (`name.en`, `events.2`) and `The <field> field ...` messages.
 */
import { SchemaAST, type SchemaIssue } from "effect"
import { LaravelMessage } from "@wasl/core/Wire"

/** Field (dot notation) → its messages, first message first. */
export type FieldErrors = Record<string, Array<string>>

const label = (key: string) => key.replace(/_/g, " ")

const expectation = (ast: SchemaAST.AST): string => {
  switch (ast._tag) {
    case "String":
      return "must be a string"
    case "Number":
      return "must be a number"
    case "Boolean":
      return "must be true or false"
    case "Arrays":
      return "must be an array"
    case "Objects":
      return "must be an object"
    default:
      return "is invalid"
  }
}

const isChoice = (ast: SchemaAST.AST): boolean =>
  ast._tag === "Literal" || (ast._tag === "Union" && ast.types.every(isChoice))

/** A check's own message may name the field as `:attribute`. */
const render = (message: string, key: string) => message.replace(/:attribute/g, label(key))

const messageOf = (issue: SchemaIssue.Leaf, key: string): string => {
  switch (issue._tag) {
    case "MissingKey":
      return `The ${label(key)} field is required.`
    case "UnexpectedKey":
      return `The ${label(key)} field is prohibited.`
    case "InvalidType":
      return isChoice(issue.ast)
        ? `The selected ${label(key)} is invalid.`
        : `The ${label(key)} field ${expectation(issue.ast)}.`
    case "InvalidValue":
    case "Forbidden": {
      const message = issue.annotations?.message
      return typeof message === "string" ? render(message, key) : `The ${label(key)} field is invalid.`
    }
    case "OneOf":
      return `The ${label(key)} field is invalid.`
  }
}

/**
 * A failed check of a value of `ast`: its own message if it has one, else Laravel's wording for the
 * built-in checks (a length counts a list's items, a text's characters).
 */
const filterMessage = (filter: SchemaAST.Filter<unknown>, key: string, ast: SchemaAST.AST | undefined): string => {
  const own = filter.annotations?.message
  if (typeof own === "string") return render(own, key)
  const representation = filter.annotations?.representation as
    | { readonly id?: string; readonly payload?: Record<string, unknown> }
    | undefined
  const payload = representation?.payload ?? {}
  const field = label(key)
  switch (representation?.id) {
    case "effect/schema/isMinLength":
      return payload["minLength"] === 1
        ? `The ${field} field is required.`
        : `The ${field} field must be at least ${payload["minLength"]} characters.`
    case "effect/schema/isMaxLength":
      return ast?._tag === "Arrays"
        ? LaravelMessage.maxArray(key, Number(payload["maxLength"]))
        : `The ${field} field must not be greater than ${payload["maxLength"]} characters.`
    case "effect/schema/isPattern":
      return `The ${field} field format is invalid.`
    case "effect/schema/isInt":
      return `The ${field} field must be an integer.`
    case "effect/schema/isGreaterThan":
      return `The ${field} field must be greater than ${payload["exclusiveMinimum"]}.`
    case "effect/schema/isGreaterThanOrEqualTo":
      return `The ${field} field must be greater than or equal to ${payload["minimum"]}.`
    default:
      return `The ${field} field is invalid.`
  }
}

/** Flatten an issue tree into field → messages, first message per field first. */
export const toFieldErrors = (issue: SchemaIssue.Issue, rootKey = "body"): FieldErrors => {
  // Keys are the client's (`constructor`, `__proto__`): collected in a Map, so none reads a member
  // of Object.prototype, then made own properties of the result.
  const out = new Map<string, Array<string>>()
  const add = (path: ReadonlyArray<PropertyKey>, message: string) => {
    const key = path.length === 0 ? rootKey : path.map(String).join(".")
    const list = out.get(key) ?? []
    out.set(key, list)
    if (!list.includes(message)) list.push(message)
  }
  // `checked`: the schema whose checks a Filter under the node reports (its Composite's).
  const walk = (node: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>, checked?: SchemaAST.AST): void => {
    switch (node._tag) {
      case "Pointer":
        return walk(node.issue, [...path, ...node.path])
      case "Composite":
        return node.issues.forEach((inner) => walk(inner, path, node.ast))
      case "AnyOf":
        if (isChoice(node.ast) || node.issues.length === 0) {
          return add(path, `The selected ${label(path.map(String).join(".") || rootKey)} is invalid.`)
        }
        return walk(node.issues[0]!, path)
      case "Filter":
        return add(path, filterMessage(node.filter, path.map(String).join(".") || rootKey, checked))
      case "Encoding":
        return walk(node.issue, path)
      default:
        return add(path, messageOf(node, path.map(String).join(".") || rootKey))
    }
  }
  walk(issue, [])
  return Object.fromEntries(out)
}

/** Decode failures that mean "this is not JSON at all". */
export const isMalformedJson = (issue: SchemaIssue.Issue): boolean =>
  issue._tag === "InvalidValue" && issue.annotations?.message === "Expected a valid JSON body"

