/**
 * Laravel 10/11's English validation messages (lang/en/validation.php), for 422 bodies keyed by
 * dot path. The attribute is shown as Laravel shows it by default: underscores
 * become spaces, dots and indices stay (`complex_filters.0.value` → `complex filters.0.value`).
 */

/** Laravel's default displayable attribute for a lower-case key. */
export const displayAttribute = (key: string): string => key.replaceAll("_", " ")

const field = (key: string) => `The ${displayAttribute(key)} field`

/**
 * Laravel's English validation messages by rule, each taking the dot key it is reported under:
 * `LaravelMessage.required("name")` is "The name field is required.".
 */
export const LaravelMessage = {
  /** `required`. */
  required: (key: string) => `${field(key)} is required.`,
  /** `prohibited`. */
  prohibited: (key: string) => `${field(key)} is prohibited.`,
  /** The `in` rule (a value outside the allowed set). */
  selectedInvalid: (key: string) => `The selected ${displayAttribute(key)} is invalid.`,
  string: (key: string) => `${field(key)} must be a string.`,
  integer: (key: string) => `${field(key)} must be an integer.`,
  numeric: (key: string) => `${field(key)} must be a number.`,
  boolean: (key: string) => `${field(key)} must be true or false.`,
  date: (key: string) => `${field(key)} must be a valid date.`,
  array: (key: string) => `${field(key)} must be an array.`,
  list: (key: string) => `${field(key)} must be a list.`,
  json: (key: string) => `${field(key)} must be a valid JSON string.`,
  regex: (key: string) => `${field(key)} format is invalid.`,
  minNumeric: (key: string, min: number | string) => `${field(key)} must be at least ${min}.`,
  maxNumeric: (key: string, max: number | string) => `${field(key)} must not be greater than ${max}.`,
  maxArray: (key: string, max: number) => `${field(key)} must not have more than ${max} items.`,
  sizeArray: (key: string, size: number) => `${field(key)} must contain ${size} items.`
} as const
