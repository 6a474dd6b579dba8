export * from "./delivery-worker.ts"
