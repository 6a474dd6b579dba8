/**
 * Records of the six kinds: object kinds, built-in and custom properties, property groups, values
 * and their validation, the list query and `complex_filters`, links, batches, the record use-cases.
 *
 * @module
 */
export * from "./records/list-query-input.ts"
export * from "./records/pagination.ts"
export * from "./records/property-type.ts"
export * from "./records/complex-filter.ts"
export * from "./records/filter-evaluator.ts"
export * from "./records/object-kind.ts"
export * from "./records/property-definition.ts"
export * from "./records/builtin-properties.ts"
export * from "./records/body-input.ts"
export * from "./records/definition-validation.ts"
export * from "./records/value-validation.ts"
export * from "./records/record-shape.ts"
export * from "./records/property-repository.ts"
export * from "./records/property-group-repository.ts"
export * from "./records/property-value-store.ts"
export * from "./use-cases/properties.ts"
export * from "./use-cases/property-groups.ts"
export * from "./records/record-repository.ts"
export * from "./records/match-lock.ts"
export * from "./use-cases/records.ts"
export * from "./use-cases/record-batches.ts"
export * from "./records/batch-input.ts"
export * from "./records/list-query.ts"
export * from "./records/link-input.ts"
export * from "./use-cases/record-lookup.ts"
export * from "./use-cases/record-links.ts"
