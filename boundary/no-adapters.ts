// What `@wasl/adapters` resolves to when the src of a driver package (`@wasl/http`,
// `@wasl/worker`) is compiled, through tsconfig.driver.json's `paths`: importing it is the type
// error below, so the build refuses an adapter import from a driver's src. A driver talks to the
// core's ports only; the app or the tests provide the adapters.
export const refused: "a driver's src must not import @wasl/adapters: depend on the core's ports" = "an adapter import"
