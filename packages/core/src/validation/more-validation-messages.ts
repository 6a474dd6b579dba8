/**
 * Laravel 10/11 validation messages that validation-messages.ts does not hold yet, in the same
 * style (attribute shown with underscores as spaces), plus the few custom messages of the records
 * engine, worded like Laravel's. (Candidates to merge into `LaravelMessage`.)
 */
import { displayAttribute } from "./validation-messages.ts"

const field = (key: string) => `The ${displayAttribute(key)} field`

/**
 * More validation messages by rule, each taking the dot key it is reported under (see
 * `LaravelMessage` for the common ones).
 */
export const LaravelMessageMore = {
  /** `max` on a string. */
  maxString: (key: string, max: number) => `${field(key)} must not be greater than ${max} characters.`,
  /** `required_without:<other>`. */
  requiredWithout: (key: string, other: string) =>
    `${field(key)} is required when ${displayAttribute(other)} is not present.`,
  /** `required_if:<other>,<value>` (Laravel shows the other field's actual value). */
  requiredIf: (key: string, other: string, value: string) =>
    `${field(key)} is required when ${displayAttribute(other)} is ${value}.`,
  /** `distinct`. */
  distinct: (key: string) => `${field(key)} has a duplicate value.`,
  /** A value nested deeper than the input may be (a bracket name beyond PHP's max_input_nesting_level, a JSON body part). */
  maxDepth: (key: string, depth: number) => `${field(key)} must not be nested more than ${depth} levels deep.`,
  /** `unique`. */
  unique: (key: string) => `The ${displayAttribute(key)} has already been taken.`,
  /** `email`. */
  email: (key: string) => `${field(key)} must be a valid email address.`,
  /** `url`. */
  url: (key: string) => `${field(key)} must be a valid URL.`,
  /** `same:<other>`. */
  same: (key: string, other: string) => `${field(key)} must match ${displayAttribute(other)}.`,
  // Custom messages of the records engine.
  /** A record body key that is no property of the kind. */
  unknownProperty: (key: string, kind: string) => `${field(key)} is not a ${kind} property.`,
  /** A property update sending another internal_name. */
  immutable: (key: string) => `${field(key)} cannot be changed.`,
  /** A property type or options change that the stored values do not satisfy. */
  incompatibleValues: (key: string) => `${field(key)} does not fit the existing values.`
} as const
