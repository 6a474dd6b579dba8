export * from "./delivery-worker-live.ts"
